#!/usr/bin/env bash
# Which release of the Sorry! Table Companion the service starts, and the way back.
# Installed by install.sh as /usr/local/lib/sorry-companion/release-switch; the service
# runs it as root around each start (ExecStartPre=, ExecStartPost=), install.sh to stage.
#
#   release-switch stage ID   the release in versions/ID starts at the service's next start
#   release-switch start      before each start: switch to a staged release (on trial), or,
#                             when a release on trial has failed TRIES starts, go back to
#                             the one before it and mark it failed
#   release-switch ready      after the app said READY=1: the release on trial is kept
#   release-switch status     what runs, what came before, what waits
#   release-switch valid-name ID   exit 0 if ID is a release name (install.sh asks)
#
# Every switch is one rename(2) of a symbolic link over another (`current`, `previous`,
# `next` in the install folder), so a power cut leaves the old link or the new, never none.
set -euo pipefail

readonly OPT=${SORRY_COMPANION_OPT:-/opt/sorry-companion}
readonly TRIES=2
readonly TRIAL=$OPT/trial

say() {
    printf 'release-switch: %s\n' "$*"
}

die() {
    say "$*" >&2
    exit 1
}

# A release name: letters, digits and . _ + -, starting with a letter or digit, no "..":
# never a path, an option, "." or ".." (a RELEASE of ".." once made versions/.. the
# install folder itself). release_update.py holds the same rule.
valid_name() {
    [[ $1 =~ ^[0-9A-Za-z][0-9A-Za-z._+-]{0,99}$ && $1 != *..* ]]
}

target() {
    local link=$OPT/$1
    [[ -L $link ]] || return 1
    basename -- "$(readlink -- "$link")"
}

# Point LINK at versions/ID with one rename over the old link.
point() {
    local link=$1 id=$2
    ln -sfn -- "versions/$id" "$OPT/.$link.new"
    mv -Tf -- "$OPT/.$link.new" "$OPT/$link"
}

stage() {
    local id=${1:?release-switch stage needs a release id}
    valid_name "$id" || die "'$id' is not a release name (letters, digits and . _ + -, no '..')."
    [[ -x $OPT/versions/$id/venv/bin/sorry-companion ]] ||
        die "no release $id in $OPT/versions (its venv has no sorry-companion)."
    point next "$id"
    say "release $id starts at the next start of the service."
}

start() {
    local id old tries
    if id=$(target next); then
        if old=$(target current) && [[ $old != "$id" ]]; then
            point previous "$old"
        fi
        point current "$id"
        rm -f -- "$OPT/next"
        printf '%s 0\n' "$id" >"$TRIAL.new"
        mv -f -- "$TRIAL.new" "$TRIAL"
        if [[ -n ${old:-} && $old != "$id" ]]; then
            say "starting release $id on trial (it goes back to $old unless it gets ready)."
        else
            say "starting release $id, the first one installed (there is no earlier release to go back to)."
        fi
    elif [[ -f $TRIAL ]]; then
        read -r id tries <"$TRIAL" || true
        tries=$((${tries:-0} + 1))
        printf '%s %d\n' "$id" "$tries" >"$TRIAL.new"
        if ! old=$(target previous) || [[ $old == "$id" ]]; then
            # Nothing to go back to: the service keeps trying, up to its start limit.
            mv -f -- "$TRIAL.new" "$TRIAL"
            say "release $id has not got ready yet: start $((tries + 1)) (there is no earlier release to go back to)."
        elif ((tries >= TRIES)); then
            rm -f -- "$TRIAL.new"
            point current "$old"
            rm -f -- "$TRIAL"
            touch -- "$OPT/versions/$id/FAILED"
            say "release $id did not get ready in $tries starts: back to release $old."
        else
            mv -f -- "$TRIAL.new" "$TRIAL"
            say "release $id on trial, start $((tries + 1)) of $TRIES (then back to release $old)."
        fi
    fi
    target current >/dev/null || die "no release is installed in $OPT: run install.sh from a release archive."
}

# Keep the running release, the one before it (the way back) and a staged one; remove the
# rest. Nothing is removed while a link is missing or names no release: then what it
# pointed at cannot be told from the rest.
prune() {
    local keep dir name link
    for link in current previous; do
        name=$(target "$link") && valid_name "$name" && [[ -d $OPT/versions/$name ]] || return 0
    done
    keep=" $(target current) $(target previous) $(target next || true) "
    for dir in "$OPT"/versions/*/; do
        [[ -d $dir && ! -L ${dir%/} ]] || continue
        dir=${dir%/}
        valid_name "${dir##*/}" || continue
        if [[ $keep != *" ${dir##*/} "* ]]; then
            rm -rf -- "$dir"
            say "removed the old release ${dir##*/}."
        fi
    done
}

ready() {
    local id tries
    if [[ -f $TRIAL ]]; then
        read -r id tries <"$TRIAL" || true
        rm -f -- "$TRIAL"
        say "release $id got ready: it stays."
    fi
    prune
}

status() {
    local name
    for name in current previous next; do
        printf '%-9s %s\n' "$name" "$(target "$name" || echo -)"
    done
    if [[ -f $TRIAL ]]; then
        printf 'trial     %s\n' "$(<"$TRIAL")"
    fi
}

case ${1:-} in
    stage) stage "${2:-}" ;;
    start) start ;;
    ready) ready || true ;;
    status) status ;;
    valid-name) valid_name "${2:-}" ;;
    *) die "use: release-switch stage ID | start | ready | status." ;;
esac
