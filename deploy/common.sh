# shellcheck shell=bash
# shellcheck disable=SC2034  # the paths are used by the scripts that source this file
# What install.sh and uninstall.sh share: where things live on the Pi, how they speak,
# dry runs, and the options both take. Sourced, never run; the caller sets SCRIPT
# (its own name, for messages), DRY_RUN=0, ROOT="" and defines usage().

readonly APP=sorry-companion
readonly APP_USER=sorry
readonly OPT_DIR=/opt/sorry-companion
readonly ETC_DIR=/etc/sorry-companion
readonly DATA_DIR=/var/lib/sorry-companion
readonly UNIT_PATH=/etc/systemd/system/sorry-companion.service
readonly UDEV_RULE_PATH=/etc/udev/rules.d/99-sorry-ledboard.rules
# The USB serial drivers loaded before the service starts (its DeviceAllow needs them).
readonly MODULES_PATH=/etc/modules-load.d/sorry-companion.conf
# The display's backlight for the service user, and USB sticks mounted for Menu > Back up.
readonly BACKLIGHT_RULE_PATH=/etc/udev/rules.d/70-sorry-companion-backlight.rules
readonly STICK_RULE_PATH=/etc/udev/rules.d/70-sorry-companion-usb-stick.rules
# install.sh --camera: the camera devices the service may open (a drop-in, so that the
# unit itself stays the same with or without a camera).
readonly UNIT_DROPIN_DIR=/etc/systemd/system/sorry-companion.service.d
readonly CAMERA_DROPIN_PATH=/etc/systemd/system/sorry-companion.service.d/camera.conf
readonly TARGET_RECORD=/etc/sorry-companion/previous-default-target
readonly POLKIT_RULE_PATH=/etc/polkit-1/rules.d/50-sorry-companion-poweroff.rules
readonly COMMAND_PATH=/usr/local/bin/sorry-companion
readonly LIB_DIR=/usr/local/lib/sorry-companion
readonly SWITCH_PATH=/usr/local/lib/sorry-companion/release-switch
# `sudo sorry-companion update ARCHIVE`: checks an update's signature, members and sums
# before it unpacks or runs any of it (release_update.py), against the key that the first
# install recorded.
readonly UPDATE_PATH=/usr/local/lib/sorry-companion/release-update
readonly RELEASE_KEY_PATH=/etc/sorry-companion/release-key.gpg
# The Raspberry Pi's boot files that quiet_boot edits; the originals are kept beside them.
readonly BOOT_DIR=/boot/firmware
readonly ORIGINAL_SUFFIX=.before-sorry-companion

die() {
    printf '%s: %s\n' "$SCRIPT" "$*" >&2
    exit 2
}

say() {
    printf '%s\n' "$*"
}

# Run a command, or in a dry run only say it.
run() {
    if ((DRY_RUN)); then
        printf 'would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# The file that a path on the Pi stands for: under --root in a dry run.
at() {
    printf '%s%s' "$ROOT" "$1"
}

# Parse --dry-run, --root DIR, --help; any other option goes to `extra_option OPTION`,
# which returns non-zero when it does not know it. --root only goes with --dry-run.
parse_common_args() {
    while (($#)); do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --root)
                if (($# < 2)) || [[ -z $2 ]]; then
                    die "--root needs a folder, as in --root /tmp/pi-root."
                fi
                ROOT=$2
                shift
                ;;
            --root=*)
                ROOT=${1#--root=}
                [[ -n $ROOT ]] || die "--root needs a folder, as in --root /tmp/pi-root."
                ;;
            -h | --help)
                usage
                exit 0
                ;;
            *) extra_option "$1" || die "unknown option '$1' (try --help)." ;;
        esac
        shift
    done
    if [[ -n $ROOT ]] && ((!DRY_RUN)); then
        die "--root only goes with --dry-run: without it, $SCRIPT works on the real system."
    fi
}
