#!/usr/bin/env bash
# Remove the Sorry! Table Companion service that deploy/install.sh set up.
#
#   sudo deploy/uninstall.sh            remove the app, keep the game data and the config
#   sudo deploy/uninstall.sh --purge    remove the data, the config and the 'sorry' user too
#   deploy/uninstall.sh --dry-run --root DIR [--purge]   remove under DIR only, run nothing
set -euo pipefail

readonly APP=sorry-companion
readonly APP_USER=sorry
readonly OPT_DIR=/opt/sorry-companion
readonly ETC_DIR=/etc/sorry-companion
readonly DATA_DIR=/var/lib/sorry-companion
readonly UNIT_PATH=/etc/systemd/system/sorry-companion.service
readonly UNIT_DROPIN_DIR=/etc/systemd/system/sorry-companion.service.d
readonly UDEV_RULE_PATH=/etc/udev/rules.d/99-sorry-ledboard.rules
readonly TARGET_RECORD=/etc/sorry-companion/previous-default-target

DRY_RUN=0
PURGE=0
ROOT=""

usage() {
    cat <<EOF
Usage: sudo $0 [--purge]
       $0 --dry-run --root DIR [--purge]

Stops and removes the ${APP} service, its udev rule and ${OPT_DIR}.
The game data (${DATA_DIR}) and the config (${ETC_DIR}) stay, so a later
install.sh carries on where the table left off.

  --purge       also remove ${DATA_DIR}, ${ETC_DIR} and the '${APP_USER}' user
  --dry-run     run no systemctl, udevadm or userdel; print what would run
  --root DIR    with --dry-run: remove the files under DIR instead of /
  -h, --help    show this help
EOF
}

die() {
    printf 'uninstall.sh: %s\n' "$*" >&2
    exit 2
}

say() {
    printf '%s\n' "$*"
}

run() {
    if ((DRY_RUN)); then
        printf 'would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

parse_args() {
    while (($#)); do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --purge) PURGE=1 ;;
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
            *) die "unknown option '$1' (try --help)." ;;
        esac
        shift
    done
    if [[ -n $ROOT ]] && ((!DRY_RUN)); then
        die "--root only goes with --dry-run: a real uninstall always works on /."
    fi
    if ((DRY_RUN)); then
        [[ -n $ROOT ]] || die "--dry-run needs --root DIR: the folder that holds a dry-run install."
        [[ -d $ROOT ]] || die "--root $ROOT is not a folder."
        ROOT=$(cd "$ROOT" && pwd)
        [[ $ROOT != / ]] || die "--dry-run with --root / would remove from the real system; leave out --dry-run instead."
    else
        ((EUID == 0)) || die "run it as root: sudo $0"
    fi
}

at() {
    printf '%s%s' "$ROOT" "$1"
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

remove_files() {
    say "== files"
    local previous_target=""
    if [[ -r $(at "$TARGET_RECORD") ]]; then
        previous_target=$(<"$(at "$TARGET_RECORD")")
    fi
    remove "$UNIT_PATH"
    remove "$UNIT_DROPIN_DIR"
    remove "$UDEV_RULE_PATH"
    remove "$OPT_DIR"
    remove "$TARGET_RECORD"
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
