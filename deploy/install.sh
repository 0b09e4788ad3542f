#!/usr/bin/env bash
# Install or update the Sorry! Table Companion as a kiosk service on Raspberry Pi OS (64-bit)
# Trixie or Bookworm, from an unpacked release archive (`make dist`). The Pi needs its
# network only while system packages are missing (a first install on a fresh card).
#
#   sudo deploy/install.sh                     install, or update (keeps data and config)
#   sudo deploy/install.sh --camera            the same, with the camera's parts
#   deploy/install.sh --dry-run --root DIR     write every file under DIR, run nothing
#
# Each release goes into its own folder, /opt/sorry-companion/versions/<release>, with its
# own venv built from the archive's wheels (every one pinned and hashed in
# deploy/requirements-pi.lock). The service switches to it at its next start (one link
# renamed over another) and goes back to the release before if the new one never gets
# ready (release-switch.sh). A game in progress is never interrupted: the update then
# waits for the next start. The owner's config and the game data always stay.
set -euo pipefail

readonly APP_GROUPS=(gpio dialout video render input audio)
readonly KIVY_HOME_DIR=/var/lib/sorry-companion/kivy
readonly VERSIONS_DIR=/opt/sorry-companion/versions
# What Kivy on KMS/DRM (its wheel brings its own SDL2), spoken announcements, the venv
# and Menu > Turn off (polkit) need; gpgv checks the signature of every later update.
readonly APT_PACKAGES=(
    python3 python3-venv espeak-ng polkitd gpgv
    libgl1 libgles2 libegl1 libgbm1 libdrm2 libgl1-mesa-dri libegl-mesa0
)
# The two libraries Debian renamed for Trixie (the 64-bit time_t move): the old names are
# only virtual there, which dpkg-query never finds installed.
readonly BOOKWORM_PACKAGES=(libmtdev1 libasound2)
readonly TRIXIE_PACKAGES=(libmtdev1t64 libasound2t64)
# GPIO through lgpio: only Raspberry Pi OS has it.
readonly PI_PACKAGES=(python3-lgpio)
# --camera on a Pi: the Pi camera through libcamera (Raspberry Pi OS only), with the
# system's numpy: picamera2's JPEG helper simplejpeg is built against it, and a venv numpy
# of another major version breaks its import (Bookworm's 1.24 under numpy 2: "numpy.dtype
# size changed"). The OpenCV wheel needs numpy 2, so Bookworm takes Debian's OpenCV too
# (about 170 packages on a fresh card, Qt among them); Trixie's numpy 2.2 takes the wheel.
# Off a Pi (a USB webcam) the extra's wheels from the archive serve alone.
readonly CAMERA_PI_PACKAGES=(python3-picamera2 python3-numpy)
readonly CAMERA_BOOKWORM_PACKAGES=(python3-opencv)
# Kernel command line words for a quiet boot: no messages, no logo, no blinking cursor
# on the screen (messages go to tty3 instead of tty1, which the game owns).
readonly QUIET_CMDLINE=(quiet loglevel=3 logo.nologo vt.global_cursor_default=0 consoleblank=0)

DEPLOY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=$(dirname "$DEPLOY_DIR")
readonly DEPLOY_DIR SOURCE_DIR
readonly SYSTEMS_FILE=$DEPLOY_DIR/supported-systems
readonly SCRIPT=install.sh
# shellcheck source=common.sh
. "$DEPLOY_DIR/common.sh"

DRY_RUN=0
ROOT=""
WORK=""
RELEASE=""
CODENAME=""
ON_PI=0
CAMERA=0

usage() {
    cat <<EOF
Usage: sudo $0 [--camera]
       $0 --dry-run [--root DIR] [--camera]

Installs the Sorry! Table Companion from this release archive as the ${APP} service:
system packages, the '${APP_USER}' user, the release in ${VERSIONS_DIR}/<release>,
${UNIT_PATH}, the command ${COMMAND_PATH}, the LED board's udev rule and drivers, the
power-off permission and, when absent, ${ETC_DIR}/config.toml.
Running it with a newer archive updates: the new release starts at the service's next
start (now, unless a game is on) and the previous one comes back if it fails.
The config and the data in ${DATA_DIR} always stay.

  --camera      also install the camera's parts and let the service open it: on a Pi
                python3-picamera2 with the system's numpy and OpenCV, elsewhere the
                camera extra's wheels (numpy, OpenCV) from this archive
  --dry-run     run no package manager, useradd, pip or systemctl; print what would run
  --root DIR    with --dry-run: write the files under DIR (default: a new temporary folder)
  -h, --help    show this help
EOF
}

# install.sh's own option: --camera.
extra_option() {
    [[ $1 == --camera ]] || return 1
    CAMERA=1
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

# The release this archive holds (its RELEASE file, written by `make dist`); a checkout
# has none, which only a dry run accepts.
read_release() {
    local file=$SOURCE_DIR/RELEASE
    [[ -r $SOURCE_DIR/deploy/requirements-pi.lock ]] ||
        die "no deploy/requirements-pi.lock in $SOURCE_DIR: run this script from an unpacked release archive."
    if [[ -r $file ]]; then
        RELEASE=$(tr -d '[:space:]' <"$file" | head -c 200)
        bash "$DEPLOY_DIR/release-switch.sh" valid-name "$RELEASE" ||
            die "$file names no release (it holds '${RELEASE//[^[:print:]]/?}'): build the archive again with make dist."
        check_sums
        compgen -G "$SOURCE_DIR/wheels/sorry_companion-*.whl" >/dev/null ||
            die "the archive has no wheels/sorry_companion-*.whl: it is incomplete; build it again with make dist."
        [[ -f $DEPLOY_DIR/release-key.gpg ]] ||
            die "the archive has no deploy/release-key.gpg: it was not made by a current make dist; build it again."
        check_update_path
    elif ((DRY_RUN)); then
        RELEASE=checkout
    else
        die "$SOURCE_DIR is a checkout, not a release: build one with 'make dist' and run install.sh from the unpacked dist/sorry-companion-*.tar.gz."
    fi
}

# Every file of the unpacked archive must be listed in its SHA256SUMS and match it, before
# anything of it runs: a damaged copy (or a changed file) stops here. A dry run too.
check_sums() {
    local sums=$SOURCE_DIR/SHA256SUMS listed present odd
    [[ -f $sums ]] || die "the archive has no SHA256SUMS: it was not made by make dist; build it again."
    odd=$(grep -c -v -E '^[0-9a-f]{64}  \./[^[:cntrl:]]+$' -- "$sums" || true)
    ((odd == 0)) || die "$sums has $odd lines that are not '<sha256>  ./<file>': copy the archive again."
    if ! (cd "$SOURCE_DIR" && sha256sum --check --strict --quiet SHA256SUMS >/dev/null 2>&1); then
        die "the archive's files do not match its SHA256SUMS (changed or damaged since make dist built it): copy the archive again, and unpack it with tar xzf into an empty folder."
    fi
    listed=$(cut -c67- -- "$sums" | LC_ALL=C sort)
    present=$(cd "$SOURCE_DIR" && find . ! -type d ! -path ./SHA256SUMS | LC_ALL=C sort)
    if [[ $listed != "$present" ]]; then
        odd=$(comm -13 <(printf '%s\n' "$listed") <(printf '%s\n' "$present") | head -n 1)
        die "the archive holds ${odd:-a file} that its SHA256SUMS does not list: unpack the archive into an empty folder (a file was added or left from another release)."
    fi
    say "checked: every file against SHA256SUMS."
}

# Once a release key is recorded, updates come through `sorry-companion update ARCHIVE`,
# which checks the archive's signature before unpacking it; this script, run from an
# archive unpacked by hand, has been checked by nothing that came before it.
check_update_path() {
    if [[ -f $(at "$RELEASE_KEY_PATH") && ${SORRY_COMPANION_VERIFIED:-} != "$RELEASE" ]]; then
        die "this Pi checks every update's signature before unpacking it: run sudo sorry-companion update ~/sorry-companion-$RELEASE.tar.gz (with its .tar.gz.sig beside it) instead."
    fi
}

# The app's defaults as written out in the checkout (companion/default_config.toml: in a
# release the whole default configuration, as deploy/dist.sh composes it; in a checkout the
# app's own tables, each game's being games/<name>/config.toml, see game_defaults_files).
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

# A checkout's games' own tables, one file per game in name order (companion/default_config.py
# composes the same); a release has none (its default_config.toml holds them already).
game_defaults_files() {
    local file
    for file in "$SOURCE_DIR"/games/*/config.toml; do
        [[ -f $file ]] && printf '%s\n' "$file"
    done
    return 0
}

# The config the owner edits: the app's defaults with every setting commented out, except
# what the Pi needs: data_dir in the state folder, and [display] fullscreen. Section headers
# stay live (an empty table means "all defaults"), so an uncommented line lands in its section.
write_config_template() {
    local out=$1 defaults game_files
    defaults=$(defaults_file)
    mapfile -t game_files < <(game_defaults_files)
    {
        printf '# Sorry! Table Companion settings on this Raspberry Pi.\n'
        printf '# Written once by deploy/install.sh; updates never overwrite it. To change a\n'
        printf '# setting, remove the "# " before it and edit the value, then run:\n'
        printf '#   sudo systemctl restart %s\n' "$APP"
        printf '# Set for the Pi: data_dir (kept by uninstall.sh unless --purge) and fullscreen.\n'
        printf '\n'
        if [[ -n $defaults ]]; then
            awk -v data_dir="$DATA_DIR" '
                FNR == 1 && NR > 1 { print "" }
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
            ' "$defaults" "${game_files[@]}"
        else
            printf 'data_dir = "%s"\n\n[display]\nfullscreen = true\n' "$DATA_DIR"
        fi
    } >"$out"
}

check_system() {
    ((EUID == 0)) || die "run it as root: sudo $0"
    command -v apt-get >/dev/null || die "apt-get is missing: this installer is for Raspberry Pi OS (64-bit) Trixie or Bookworm."
    local config_txt
    for config_txt in "$BOOT_DIR/config.txt" /boot/config.txt; do
        [[ -r $config_txt ]] || continue
        if grep -q -E '^[[:space:]]*dtoverlay=vc4-fkms-v3d' -- "$config_txt"; then
            say "warning: $config_txt uses the old fake-KMS driver (vc4-fkms-v3d), which stalls the screen; use dtoverlay=vc4-kms-v3d."
        elif ! grep -q -E '^[[:space:]]*dtoverlay=vc4-kms-v3d' -- "$config_txt"; then
            say "warning: $config_txt has no dtoverlay=vc4-kms-v3d line: the game needs full KMS for the display."
        fi
        break
    done
}

# The system this is (its /etc/os-release, under --root in a dry run) and its Python must
# be one of deploy/supported-systems, and the archive must carry the wheels for that
# Python on this processor; otherwise one sentence says what to flash or build instead.
check_platform() {
    local os_release pretty="" python="" expected arch
    os_release=$(at /etc/os-release)
    if [[ -r $os_release ]]; then
        CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' -- "$os_release" | tr -d '"')
        pretty=$(sed -n 's/^PRETTY_NAME=//p' -- "$os_release" | tr -d '"')
    elif ((DRY_RUN)); then
        CODENAME=$(awk '!/^#/ && NF { print $1; exit }' "$SYSTEMS_FILE")
        say "dry run: $os_release is missing, so this plans for $CODENAME."
    fi
    expected=$(awk -v codename="$CODENAME" '!/^#/ && $1 == codename { print $2 }' "$SYSTEMS_FILE")
    if [[ -z $expected ]]; then
        die "this is ${pretty:-a system without /etc/os-release}, and this release installs only on Raspberry Pi OS (64-bit) $(supported_names): flash Raspberry Pi OS Lite (64-bit) with Raspberry Pi Imager and run install.sh again."
    fi
    if ((DRY_RUN)); then
        python=$expected
        arch=aarch64
    else
        arch=$(uname -m)
        python=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true)
        python=${python:-$expected} # no python3 yet: apt-get installs the system's own
    fi
    if [[ $python != "$expected" ]]; then
        die "python3 here is $python, not $expected as on Raspberry Pi OS ${CODENAME^}: this release's wheels are for $expected; put back Debian's python3 (sudo apt-get install --reinstall python3) or flash the card again."
    fi
    if [[ -r $SOURCE_DIR/RELEASE ]] &&
        ! compgen -G "$SOURCE_DIR/wheels/[Kk]ivy-*-cp${python/./}-*_$arch.whl" >/dev/null; then
        if [[ $arch != aarch64 ]]; then
            die "this is a $arch system and the archive's wheels are for 64-bit Raspberry Pi OS (aarch64): flash Raspberry Pi OS Lite (64-bit) with Raspberry Pi Imager and run install.sh again."
        fi
        die "this archive carries no wheels for Python $python on $arch (Raspberry Pi OS ${CODENAME^}): build it again with a current make dist, which packs them for $(supported_names)."
    fi
    say "system: ${pretty:-Raspberry Pi OS ${CODENAME^}}, Python $python on $arch."
}

# "Trixie or Bookworm", from deploy/supported-systems.
supported_names() {
    awk '!/^#/ && NF { names = names (names ? " or " : "") toupper(substr($1, 1, 1)) substr($1, 2) } END { print names }' "$SYSTEMS_FILE"
}

# A Raspberry Pi (its device tree says so); elsewhere, as in the emulated test machine,
# the Pi-only steps are skipped and named.
detect_pi() {
    local model=""
    if [[ -r $(at /proc/device-tree/model) ]]; then
        model=$(tr -d '\0' <"$(at /proc/device-tree/model)")
    fi
    if [[ $model == *"Raspberry Pi"* ]]; then
        ON_PI=1
    fi
}

skipped() {
    say "skipped (not a Raspberry Pi): $*"
}

# Packages that are already there are not asked for again, so a Pi that has them all
# installs (and updates) with no network at all.
install_packages() {
    say "== system packages"
    local -a wanted=("${APT_PACKAGES[@]}") missing=()
    if [[ $CODENAME == bookworm ]]; then
        wanted+=("${BOOKWORM_PACKAGES[@]}")
    else
        wanted+=("${TRIXIE_PACKAGES[@]}")
    fi
    if ((ON_PI)); then
        wanted+=("${PI_PACKAGES[@]}")
        if ((CAMERA)); then
            wanted+=("${CAMERA_PI_PACKAGES[@]}")
            [[ $CODENAME != bookworm ]] || wanted+=("${CAMERA_BOOKWORM_PACKAGES[@]}")
        fi
    else
        skipped "${PI_PACKAGES[*]} (GPIO for the buttons)"
        ((!CAMERA)) || skipped "${CAMERA_PI_PACKAGES[*]} (the Pi camera; a USB webcam works without it)"
    fi
    if ((DRY_RUN)); then
        missing=("${wanted[@]}")
    else
        local package
        for package in "${wanted[@]}"; do
            if [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) != "install ok installed" ]]; then
                missing+=("$package")
            fi
        done
    fi
    if ((${#missing[@]} == 0)); then
        say "all present: ${wanted[*]}"
        return
    fi
    say "missing: ${missing[*]}; apt-get fetches them, which needs the Pi's network."
    # --error-on=any: a package list that could not be fetched is an error (plain
    # `apt-get update` only warns and exits 0 with no network).
    if ! run apt-get update --error-on=any; then
        die "${#missing[@]} system packages are missing (${missing[*]}) and apt-get cannot reach the package archive: connect the Pi to the network (Wi-Fi: sudo nmtui, or set it in Raspberry Pi Imager; or a cable) and run install.sh again."
    fi
    if ((!DRY_RUN)) && ((ON_PI)) && ! apt-cache show python3-lgpio >/dev/null 2>&1; then
        die "the package python3-lgpio is in none of this system's package sources: it comes from Raspberry Pi's own archive, which Raspberry Pi OS has, so flash Raspberry Pi OS (64-bit) with Raspberry Pi Imager."
    fi
    if ! run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
        die "apt-get could not install ${missing[*]} (its message is above): check the Pi's network and free space (df -h /) and run install.sh again."
    fi
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
    if ((CAMERA)); then
        put_file "$DEPLOY_DIR/sorry-companion-camera.conf" "$CAMERA_DROPIN_PATH" 644
    elif [[ -e $(at "$CAMERA_DROPIN_PATH") ]]; then
        rm -f -- "$(at "$CAMERA_DROPIN_PATH")"
        say "removed: $CAMERA_DROPIN_PATH (installed without --camera)"
    fi
    put_file "$DEPLOY_DIR/99-sorry-ledboard.rules" "$UDEV_RULE_PATH" 644
    put_file "$DEPLOY_DIR/sorry-companion-modules.conf" "$MODULES_PATH" 644
    put_file "$DEPLOY_DIR/70-sorry-companion-backlight.rules" "$BACKLIGHT_RULE_PATH" 644
    put_file "$DEPLOY_DIR/70-sorry-companion-usb-stick.rules" "$STICK_RULE_PATH" 644
    put_file "$DEPLOY_DIR/50-sorry-companion-poweroff.rules" "$POLKIT_RULE_PATH" 644
    put_file "$DEPLOY_DIR/release-switch.sh" "$SWITCH_PATH" 755
    put_file "$DEPLOY_DIR/release_update.py" "$UPDATE_PATH" 755
    if [[ -f $DEPLOY_DIR/release-key.gpg ]]; then
        # The first install's key is kept: every later update must be signed by it.
        put_file_if_absent "$DEPLOY_DIR/release-key.gpg" "$RELEASE_KEY_PATH" 644
    fi
    put_file "$DEPLOY_DIR/command.sh" "$COMMAND_PATH" 755

    mkdir -p -- "$(at "$ETC_DIR")"
    write_config_template "$WORK/config.toml"
    put_file_if_absent "$WORK/config.toml" "$ETC_DIR/config.toml" 644

    mkdir -p -- "$(at "$OPT_DIR")" "$(at "$DATA_DIR")" "$(at "$KIVY_HOME_DIR")"
    chmod 750 -- "$(at "$DATA_DIR")"
    run chown -R "$APP_USER:$APP_USER" "$DATA_DIR"
}

# Add WORDS to a one-line kernel command line that lacks them; console=tty1 becomes tty3.
quiet_cmdline() {
    local file=$1 line word
    line=$(head -n 1 -- "$file")
    line=${line//console=tty1/console=tty3}
    for word in "${QUIET_CMDLINE[@]}"; do
        if [[ " $line " != *" $word "* ]]; then
            line+=" $word"
        fi
    done
    printf '%s\n' "$line"
}

# No boot text and no cursor on the screen: the kernel command line and config.txt, with
# each original kept once beside it (uninstall.sh puts it back).
quiet_boot() {
    say "== quiet boot"
    local cmdline config_txt
    cmdline=$(at "$BOOT_DIR/cmdline.txt")
    config_txt=$(at "$BOOT_DIR/config.txt")
    if [[ ! -f $cmdline ]]; then
        skipped "quiet boot ($BOOT_DIR/cmdline.txt and config.txt are the Pi's boot files)"
        return
    fi
    # The boot partition is FAT: files are rewritten in place, never chmod-ed.
    quiet_cmdline "$cmdline" >"$WORK/cmdline.txt"
    if cmp -s -- "$WORK/cmdline.txt" "$cmdline"; then
        say "unchanged: $BOOT_DIR/cmdline.txt"
    else
        [[ -e $cmdline$ORIGINAL_SUFFIX ]] || cp -- "$cmdline" "$cmdline$ORIGINAL_SUFFIX"
        cat -- "$WORK/cmdline.txt" >"$cmdline"
        say "installed: quiet boot in $BOOT_DIR/cmdline.txt"
    fi
    if [[ -f $config_txt ]] && ! grep -q -E '^[[:space:]]*disable_splash=1' -- "$config_txt"; then
        [[ -e $config_txt$ORIGINAL_SUFFIX ]] || cp -- "$config_txt" "$config_txt$ORIGINAL_SUFFIX"
        printf '\n# Sorry! Table Companion: no rainbow square at power-on.\ndisable_splash=1\n' >>"$config_txt"
        say "installed: disable_splash=1 in $BOOT_DIR/config.txt"
    fi
}

# The camera extra's wheels: both off a Pi; on a Pi the system's numpy stays the one the
# venv sees (picamera2's), with the OpenCV wheel on Trixie (no deps: it takes that numpy)
# and none on Bookworm (Debian's OpenCV, as the wheel needs numpy 2).
install_camera_wheels() {
    local dest=$1 lock=$DEPLOY_DIR/requirements-camera.lock
    local -a pip=("$dest/venv/bin/python" -m pip install --disable-pip-version-check --no-input
        --no-index --find-links "$SOURCE_DIR/wheels" --only-binary=:all: --require-hashes)
    if ((!ON_PI)); then
        run "${pip[@]}" --ignore-installed -r "$lock"
    elif [[ $CODENAME == bookworm ]]; then
        say "camera: numpy and OpenCV are Raspberry Pi OS's own (python3-numpy, python3-opencv), the ones picamera2 is built with."
    else
        awk '/^[a-z]/ { keep = /^opencv-python-headless==/ } keep' "$lock" >"$WORK/camera-opencv.lock"
        run "${pip[@]}" --no-deps -r "$WORK/camera-opencv.lock"
        say "camera: numpy is Raspberry Pi OS's own (python3-numpy), the one picamera2 is built with."
    fi
}

# The release in its own folder with its own venv, from the archive's wheels only; the
# running release is not touched, so a failure here (or a power cut) changes nothing.
install_release() {
    local dest=$VERSIONS_DIR/$RELEASE
    say "== release $RELEASE in $dest"
    if ((!DRY_RUN)) && [[ -x $dest/venv/bin/sorry-companion && ! -e $dest/FAILED ]]; then
        case versions/$RELEASE in
            "$(readlink -- "$OPT_DIR/current" 2>/dev/null)")
                say "already installed and running: $RELEASE"
                return
                ;;
            "$(readlink -- "$OPT_DIR/previous" 2>/dev/null)")
                # The way back: kept as it is (a release name is its content), only staged.
                say "already installed, as the release before: $RELEASE"
                run "$SWITCH_PATH" stage "$RELEASE"
                return
                ;;
        esac
    fi
    run rm -rf -- "$dest"
    # lgpio comes from Debian's python3-lgpio, so the venv sees the system packages.
    run python3 -m venv --system-site-packages "$dest/venv"
    run "$dest/venv/bin/python" -m pip install --disable-pip-version-check --no-input \
        --no-index --find-links "$SOURCE_DIR/wheels" --only-binary=:all: --ignore-installed \
        --require-hashes -r "$DEPLOY_DIR/requirements-pi.lock"
    if ((CAMERA)); then
        install_camera_wheels "$dest"
    fi
    local wheel
    wheel=$(compgen -G "$SOURCE_DIR/wheels/sorry_companion-*.whl" || echo "$SOURCE_DIR/wheels/sorry_companion-<version>-py3-none-any.whl")
    run "$dest/venv/bin/python" -m pip install --disable-pip-version-check --no-input \
        --no-index --no-deps "$wheel"
    # It must at least start before the service may switch to it.
    run "$dest/venv/bin/sorry-companion" --version
    run "$(at "$SWITCH_PATH")" stage "$RELEASE"
}

enable_service() {
    say "== service"
    # Now too, not only from the next boot: the service may start before any reboot.
    if ((DRY_RUN)) || command -v modprobe >/dev/null; then
        run modprobe -a cdc_acm usbserial ||
            say "warning: the USB serial drivers did not load; the LED board may not be found."
    fi
    if ((DRY_RUN)) || command -v udevadm >/dev/null; then
        run udevadm control --reload-rules
        run udevadm trigger --subsystem-match=tty --action=change
        run udevadm trigger --subsystem-match=backlight --action=add
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
        say "would run: systemctl restart $APP.service (only if it runs and no game is on)"
    elif ! systemctl is-active --quiet "$APP.service"; then
        say "done: reboot (sudo reboot) or start it now with: sudo systemctl start $APP"
    elif "$VERSIONS_DIR/$RELEASE/venv/bin/python" -c \
        'import sys; from companion.version import game_in_progress; sys.exit(0 if game_in_progress(sys.argv[1]) else 1)' \
        "$ETC_DIR/config.toml"; then
        say "a game is on: release $RELEASE starts the next time the table is turned on (or now, ending the game's screen: sudo systemctl restart $APP)."
    else
        systemctl reset-failed "$APP.service" || true
        systemctl restart "$APP.service" || true
        say "restarted $APP.service; it now runs release $(basename -- "$(readlink -- "$OPT_DIR/current")")."
    fi
}

main() {
    parse_args "$@"
    if ((DRY_RUN)); then
        say "dry run: files go under $ROOT; no command is run."
    else
        check_system
    fi
    # An incomplete archive, or a system it has no wheels for, stops the install before
    # anything is changed.
    read_release
    check_platform
    detect_pi
    WORK=$(mktemp -d)
    trap 'rm -rf -- "$WORK"' EXIT
    install_packages
    create_user
    install_files
    quiet_boot
    install_release
    enable_service
}

main "$@"
