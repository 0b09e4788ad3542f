#!/usr/bin/env bash
# Remove the Sorry! Table Companion service that deploy/install.sh set up.
#
#   sudo deploy/uninstall.sh            remove the app, keep the game data and the config
#   sudo deploy/uninstall.sh --purge    remove the data, the config and the 'sorry' user too
#   deploy/uninstall.sh --dry-run --root DIR [--purge]   remove under DIR only, run nothing
set -euo pipefail

DEPLOY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly DEPLOY_DIR
readonly SCRIPT=uninstall.sh
# shellcheck source=common.sh
. "$DEPLOY_DIR/common.sh"

DRY_RUN=0
PURGE=0
ROOT=""

usage() {
    cat <<EOF
Usage: sudo $0 [--purge]
       $0 --dry-run --root DIR [--purge]

Stops and removes the ${APP} service, its udev rule, its power-off permission,
the ${COMMAND_PATH} command, ${OPT_DIR} (every release), and puts the Pi's
boot files back as they were.
The game data (${DATA_DIR}) and the config (${ETC_DIR}) stay, so a later
install.sh carries on where the table left off.

  --purge       also remove ${DATA_DIR}, ${ETC_DIR} and the '${APP_USER}' user
  --dry-run     run no systemctl, udevadm or userdel; print what would run
  --root DIR    with --dry-run: remove the files under DIR instead of /
  -h, --help    show this help
EOF
}

extra_option() {
    case $1 in
        --purge) PURGE=1 ;;
        *) return 1 ;;
    esac
}

parse_args() {
    parse_common_args "$@"
    if ((DRY_RUN)); then
        [[ -n $ROOT ]] || die "--dry-run needs --root DIR: the folder that holds a dry-run install."
        [[ -d $ROOT ]] || die "--root $ROOT is not a folder."
        ROOT=$(cd "$ROOT" && pwd)
        [[ $ROOT != / ]] || die "--dry-run with --root / would remove from the real system; leave out --dry-run instead."
    else
        ((EUID == 0)) || die "run it as root: sudo $0"
    fi
}

remove() {
    local path
    path=$(at "$1")
    if [[ -e $path || -L $path ]]; then
        rm -rf -- "$path"
        say "removed: $1"
    fi
}

stop_service() {
    say "== service"
    if ((DRY_RUN)) || command -v systemctl >/dev/null; then
        # `|| true`: the service may already be gone, which is what we want anyway.
        run systemctl disable --now "$APP.service" || true
    fi
}

# The Pi's boot file as it was before install.sh made the boot quiet.
restore_boot_file() {
    local file original
    file=$(at "$1")
    original=$file$ORIGINAL_SUFFIX
    if [[ -f $original ]]; then
        cat -- "$original" >"$file"
        rm -f -- "$original"
        say "restored: $1"
    fi
}

remove_files() {
    say "== files"
    local previous_target=""
    if [[ -r $(at "$TARGET_RECORD") ]]; then
        previous_target=$(<"$(at "$TARGET_RECORD")")
    fi
    remove "$UNIT_PATH"
    remove "$UNIT_DROPIN_DIR"
    remove "$UDEV_RULE_PATH"
    remove "$MODULES_PATH"
    remove "$BACKLIGHT_RULE_PATH"
    remove "$STICK_RULE_PATH"
    remove "$POLKIT_RULE_PATH"
    remove "$COMMAND_PATH"
    remove "$LIB_DIR"
    remove "$OPT_DIR"
    restore_boot_file "$BOOT_DIR/cmdline.txt"
    restore_boot_file "$BOOT_DIR/config.txt"
    remove "$TARGET_RECORD"
    # The release key goes with the app: a later install records its archive's key anew.
    remove "$RELEASE_KEY_PATH"
    if ((PURGE)); then
        remove "$ETC_DIR"
        remove "$DATA_DIR"
    else
        say "kept: $ETC_DIR (config) and $DATA_DIR (game data); --purge removes them"
    fi
    if [[ $previous_target == graphical.target ]]; then
        run systemctl set-default graphical.target
    fi
}

reload() {
    if ((DRY_RUN)) || command -v systemctl >/dev/null; then
        run systemctl daemon-reload
    fi
    if ((DRY_RUN)) || command -v udevadm >/dev/null; then
        run udevadm control --reload-rules
    fi
    if ((PURGE)); then
        if ((DRY_RUN)) || id -u "$APP_USER" >/dev/null 2>&1; then
            run userdel "$APP_USER"
        fi
    fi
}

main() {
    parse_args "$@"
    if ((DRY_RUN)); then
        say "dry run: files are removed under $ROOT; no command is run."
    fi
    stop_service
    remove_files
    reload
    say "uninstalled $APP."
}

main "$@"
