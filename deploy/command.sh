#!/usr/bin/env bash
# `sorry-companion` on the Pi's PATH (installed by install.sh as /usr/local/bin/sorry-companion).
#
# Runs the installed app's command line as the service user 'sorry' with the installed
# configuration, so `sorry-companion history`, `export`, `backup` or `doctor` read the same
# games and settings as the table; `sorry-companion update ARCHIVE` installs a newer release
# once its signature and files are checked. Started by another user it asks sudo first (the data
# folder belongs to 'sorry'). Commands that need the buttons or the LED board (`doctor`,
# `ledboard flash`) stop the game's service while they run and start it again after,
# because the running game holds the GPIO lines and the board's serial port.
set -euo pipefail

readonly APP=sorry-companion
readonly APP_USER=sorry
# SORRY_COMPANION_ROOT only moves these paths for the tests; sudo does not pass it on.
readonly PREFIX=${SORRY_COMPANION_ROOT:-}
readonly APP_BIN=$PREFIX/opt/sorry-companion/current/venv/bin/sorry-companion
readonly CONFIG=$PREFIX/etc/sorry-companion/config.toml
readonly DATA_DIR=$PREFIX/var/lib/sorry-companion
# `sorry-companion update ARCHIVE`: as root, the installed checker (install.sh's
# release_update.py), never anything from the new archive before it is checked.
readonly UPDATE=$PREFIX/usr/local/lib/sorry-companion/release-update

say() {
    printf '%s: %s\n' "$APP" "$*" >&2
}

# The command word (and the one after it) once the global options are skipped.
needs_hardware() {
    local words=()
    while (($#)); do
        case $1 in
            --config | --data) shift ;;
            -*) ;;
            *) words+=("$1") ;;
        esac
        shift || true
    done
    [[ ${words[0]:-} == doctor ]] || [[ ${words[0]:-} == ledboard && ${words[1]:-} == flash ]]
}

main() {
    if [[ ${1:-} == update ]]; then
        shift
        if ((EUID != 0)); then
            exec sudo -- "$0" update "$@"
        fi
        exec python3 "$UPDATE" "$@"
    fi
    if [[ ! -x $APP_BIN ]]; then
        say "the app is not installed ($APP_BIN is missing): run install.sh from a release archive."
        exit 2
    fi
    local -a app=(env SORRY_COMPANION_CONFIG="$CONFIG" LG_WD="$DATA_DIR" HOME="$DATA_DIR" "$APP_BIN")
    if [[ $(id -un) == "$APP_USER" ]]; then
        exec "${app[@]}" "$@"
    fi
    if ((EUID != 0)); then
        exec sudo -- "$0" "$@"
    fi
    if needs_hardware "$@" && systemctl is-active --quiet "$APP.service"; then
        say "stopping the game ($APP.service) to use the buttons and the LED board; it starts again when this command ends."
        systemctl stop "$APP.service"
        trap 'say "starting the game again ($APP.service)."; systemctl start --no-block "$APP.service"' EXIT
    fi
    runuser -u "$APP_USER" -- "${app[@]}" "$@"
}

main "$@"
