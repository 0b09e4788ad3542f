#!/usr/bin/env bash
# Install or upgrade the Sorry! Table Companion as a kiosk service on Raspberry Pi OS Bookworm.
#
#   sudo deploy/install.sh                     install, or upgrade in place (keeps data and config)
#   deploy/install.sh --dry-run --root DIR     write every file under DIR, run nothing
#
# Run it again after `git pull` to upgrade: the app is reinstalled from this checkout,
# the unit and udev rule are refreshed, and the owner's config and the game data stay.
set -euo pipefail

readonly APP_GROUPS=(gpio dialout video render input audio)
readonly VENV=/opt/sorry-companion/venv
readonly KIVY_HOME_DIR=/var/lib/sorry-companion/kivy
# What Kivy on KMS/DRM, GPIO (lgpio), spoken announcements and the venv need.
readonly APT_PACKAGES=(
    python3 python3-venv python3-lgpio espeak-ng
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
    libmtdev1 libgl1 libgles2 libegl1 libgbm1 libdrm2 libgl1-mesa-dri libegl-mesa0
    libasound2
)
# The only requirements the Pi needs; their pinned versions come from requirements.txt.
readonly RUNTIME_REQUIREMENTS=(kivy gpiozero pyserial)

DEPLOY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=$(dirname "$DEPLOY_DIR")
readonly DEPLOY_DIR SOURCE_DIR
readonly SCRIPT=install.sh
# shellcheck source=common.sh
. "$DEPLOY_DIR/common.sh"

DRY_RUN=0
ROOT=""
WORK=""

usage() {
    cat <<EOF
Usage: sudo $0
       $0 --dry-run [--root DIR]

Installs the Sorry! Table Companion from this checkout as the ${APP} service:
system packages, the '${APP_USER}' user, a venv in ${VENV}, ${UNIT_PATH},
the LED board's udev rule and, when absent, ${ETC_DIR}/config.toml.
Running it again upgrades in place and keeps the config and the data in ${DATA_DIR}.

  --dry-run     run no package manager, useradd, pip or systemctl; print what would run
  --root DIR    with --dry-run: write the files under DIR (default: a new temporary folder)
  -h, --help    show this help
EOF
}

# install.sh takes only the common options.
extra_option() {
    return 1
}

parse_args() {
    parse_common_args "$@"
    if ((DRY_RUN)); then
        if [[ -z $ROOT ]]; then
            ROOT=$(mktemp -d "${TMPDIR:-/tmp}/sorry-companion-root.XXXXXX")
        fi
        mkdir -p -- "$ROOT"
        ROOT=$(cd "$ROOT" && pwd)
        [[ $ROOT != / ]] || die "--dry-run with --root / would write into the real system; leave out --dry-run instead."
    fi
}

# Install SRC as DEST with MODE unless DEST already has exactly that content,
# so that a second run leaves files, and their times, alone.
put_file() {
    local src=$1 dest mode=$3
    dest=$(at "$2")
    if [[ -f $dest ]] && cmp -s -- "$src" "$dest"; then
        say "unchanged: $2"
        if [[ $(stat -c %a -- "$dest") != "$mode" ]]; then
            chmod -- "$mode" "$dest"
        fi
        return
    fi
    mkdir -p -- "$(dirname "$dest")"
    install -m "$mode" -- "$src" "$dest"
    say "installed: $2"
}

# Install SRC as DEST only if DEST does not exist: the owner's edits always win.
put_file_if_absent() {
    local src=$1 dest mode=$3
    dest=$(at "$2")
    if [[ -e $dest ]]; then
        say "kept as it is: $2"
        return
    fi
    mkdir -p -- "$(dirname "$dest")"
    install -m "$mode" -- "$src" "$dest"
    say "installed: $2"
}

# kivy==2.3.1 gpiozero==2.0.1 pyserial==3.5, read from the checkout's requirements.txt
# (which also pins the test tools; those are not for the Pi).
pinned_requirements() {
    local requirements=$SOURCE_DIR/requirements.txt name line
    [[ -r $requirements ]] || die "no requirements.txt in $SOURCE_DIR: run this script from a checkout of the project."
    for name in "${RUNTIME_REQUIREMENTS[@]}"; do
        line=$(grep -i -E "^[[:space:]]*${name}[[:space:]]*==[[:space:]]*[^[:space:]#]+" -- "$requirements" | head -n 1 || true)
        [[ -n $line ]] || die "requirements.txt pins no version of $name (expected a line like '$name==1.2.3')."
        line=${line%%#*}
        printf '%s\n' "${line//[[:space:]]/}"
    done
}

# The app's defaults as written out in the checkout (companion/default_config.toml).
defaults_file() {
    local candidates=("$SOURCE_DIR"/companion/default_config.toml "$SOURCE_DIR"/companion/defaults.toml)
    local file
    for file in "${candidates[@]}"; do
        if [[ -f $file ]]; then
            printf '%s' "$file"
            return
        fi
    done
}

# The config the owner edits: the app's defaults with every setting commented out, except
# what the Pi needs: data_dir in the state folder, and [display] fullscreen. Section headers
# stay live (an empty table means "all defaults"), so an uncommented line lands in its section.
write_config_template() {
    local out=$1 defaults
    defaults=$(defaults_file)
    {
        printf '# Sorry! Table Companion settings on this Raspberry Pi.\n'
        printf '# Written once by deploy/install.sh; updates never overwrite it. To change a\n'
        printf '# setting, remove the "# " before it and edit the value, then run:\n'
        printf '#   sudo systemctl restart %s\n' "$APP"
        printf '# Set for the Pi: data_dir (kept by uninstall.sh unless --purge) and fullscreen.\n'
        printf '\n'
        if [[ -n $defaults ]]; then
            awk -v data_dir="$DATA_DIR" '
                function pi_keys_of(section) {
                    if (section == "" && !data_dir_done) {
                        printf "data_dir = \"%s\"\n", data_dir; data_dir_done = 1
                    }
                    if (section == "display" && !fullscreen_done) {
                        print "fullscreen = true"; fullscreen_done = 1
                    }
                }
                /^[[:space:]]*\[[^]]*\][[:space:]]*(#.*)?$/ {
                    pi_keys_of(section)
                    section = $0
                    sub(/^[[:space:]]*\[[[:space:]]*/, "", section)
                    sub(/[[:space:]]*\].*$/, "", section)
                    print; next
                }
                /^[[:space:]]*#?[[:space:]]*data_dir[[:space:]]*=/ && section == "" {
                    pi_keys_of(section); next
                }
                /^[[:space:]]*fullscreen[[:space:]]*=/ && section == "display" {
                    pi_keys_of(section); next
                }
                /^[[:space:]]*(#.*)?$/ { print; next }
                { print "# " $0 }
                END {
                    pi_keys_of(section)
                    if (!fullscreen_done) { print "\n[display]"; pi_keys_of("display") }
                }
            ' "$defaults"
        else
            printf 'data_dir = "%s"\n\n[display]\nfullscreen = true\n' "$DATA_DIR"
        fi
    } >"$out"
}

check_system() {
    ((EUID == 0)) || die "run it as root: sudo $0"
    command -v apt-get >/dev/null || die "apt-get is missing: this installer is for Raspberry Pi OS Bookworm."
    local codename=""
    if [[ -r /etc/os-release ]]; then
        codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release | tr -d '"')
    fi
    if [[ $codename != bookworm ]]; then
        say "warning: this is '${codename:-an unknown system}', not Raspberry Pi OS Bookworm; going on anyway."
    fi
    local config_txt
    for config_txt in /boot/firmware/config.txt /boot/config.txt; do
        [[ -r $config_txt ]] || continue
        if grep -q -E '^[[:space:]]*dtoverlay=vc4-fkms-v3d' -- "$config_txt"; then
            say "warning: $config_txt uses the old fake-KMS driver (vc4-fkms-v3d), which stalls the screen; use dtoverlay=vc4-kms-v3d."
        elif ! grep -q -E '^[[:space:]]*dtoverlay=vc4-kms-v3d' -- "$config_txt"; then
            say "warning: $config_txt has no dtoverlay=vc4-kms-v3d line: the game needs full KMS for the display."
        fi
        break
    done
}

# On a Pi 5, gpiozero 2.0.1 opens /dev/gpiochip4, which only Raspberry Pi OS's udev link
# provides on recent kernels: without it the buttons are dead (hardware/gpiochip.py).
check_gpiochip() {
    local model=""
    if [[ -r $(at /proc/device-tree/model) ]]; then
        model=$(tr -d '\0' <"$(at /proc/device-tree/model)")
    fi
    if [[ $model == *"Raspberry Pi 5"* ]] && [[ ! -e $(at /dev/gpiochip4) ]]; then
        say "warning: this Raspberry Pi 5 has no /dev/gpiochip4, which gpiozero 2.0.1 opens for the buttons, so they cannot work; to fix it: sudo apt install --reinstall raspberrypi-sys-mods (Raspberry Pi OS's udev rules make the link), then reboot."
    fi
}

install_packages() {
    say "== system packages"
    run apt-get update
    if ((!DRY_RUN)) && ! apt-cache show python3-lgpio >/dev/null 2>&1; then
        die "the package python3-lgpio is not available: it comes from the Raspberry Pi OS archive, so flash Raspberry Pi OS Bookworm."
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
}

create_user() {
    say "== user '$APP_USER'"
    if ((DRY_RUN)) || ! id -u "$APP_USER" >/dev/null 2>&1; then
        run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Sorry! Table Companion" "$APP_USER"
    else
        say "exists: $APP_USER"
    fi
    local group
    for group in "${APP_GROUPS[@]}"; do
        if ((DRY_RUN)) || getent group "$group" >/dev/null; then
            run usermod --append --groups "$group" "$APP_USER"
        else
            say "warning: there is no '$group' group here, so '$APP_USER' cannot join it."
        fi
    done
}

install_files() {
    say "== files"
    put_file "$DEPLOY_DIR/sorry-companion.service" "$UNIT_PATH" 644
    put_file "$DEPLOY_DIR/99-sorry-ledboard.rules" "$UDEV_RULE_PATH" 644

    mkdir -p -- "$(at "$ETC_DIR")"
    write_config_template "$WORK/config.toml"
    put_file_if_absent "$WORK/config.toml" "$ETC_DIR/config.toml" 644

    mkdir -p -- "$(at "$OPT_DIR")" "$(at "$DATA_DIR")" "$(at "$KIVY_HOME_DIR")"
    chmod 750 -- "$(at "$DATA_DIR")"
    run chown -R "$APP_USER:$APP_USER" "$DATA_DIR"
}

install_app() {
    say "== the app in $VENV"
    local -a pins
    mapfile -t pins < <(pinned_requirements)
    ((${#pins[@]} == ${#RUNTIME_REQUIREMENTS[@]})) || exit 2
    if ((DRY_RUN)) || [[ ! -x $VENV/bin/python ]]; then
        # lgpio comes from Debian's python3-lgpio, so the venv sees the system packages.
        run python3 -m venv --system-site-packages "$VENV"
    fi
    run "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input "${pins[@]}"
    # Build from a copy, so that root leaves no build files in the owner's checkout.
    local build
    if ((DRY_RUN)); then
        build=$SOURCE_DIR
        say "would copy $SOURCE_DIR (less .git and .venv) to a temporary folder and build there:"
    else
        build=$WORK/src
        mkdir -p -- "$build"
        tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./.venv --exclude=./build \
            --exclude='*.egg-info' -cf - . | tar -C "$build" -xf -
    fi
    run "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input \
        --no-deps --force-reinstall "$build"
}

enable_service() {
    say "== service"
    if ((DRY_RUN)) || command -v udevadm >/dev/null; then
        run udevadm control --reload-rules
        run udevadm trigger --subsystem-match=tty --action=change
    fi
    # A desktop session would hold the display: the Pi boots to the console and the game.
    if ((DRY_RUN)); then
        say "would run: systemctl set-default multi-user.target (only if the default is graphical.target)"
    elif [[ $(systemctl get-default) == graphical.target ]]; then
        printf 'graphical.target\n' >"$TARGET_RECORD"
        systemctl set-default multi-user.target
        say "the Pi now boots to the console (uninstall.sh restores the desktop)."
    fi
    run systemctl daemon-reload
    run systemctl enable "$APP.service"
    if ((DRY_RUN)); then
        say "would run: systemctl restart $APP.service (only if it is running, to pick up the update)"
    elif systemctl is-active --quiet "$APP.service"; then
        systemctl restart "$APP.service"
        say "restarted $APP.service with the new version."
    else
        say "done: reboot (sudo reboot) or start it now with: sudo systemctl start $APP"
    fi
}

main() {
    parse_args "$@"
    if ((DRY_RUN)); then
        say "dry run: files go under $ROOT; no command is run."
    else
        check_system
    fi
    # A bad requirements.txt stops the install before anything is changed.
    pinned_requirements >/dev/null
    WORK=$(mktemp -d)
    trap 'rm -rf -- "$WORK"' EXIT
    install_packages
    check_gpiochip
    create_user
    install_files
    install_app
    enable_service
}

main "$@"
