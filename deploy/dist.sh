#!/usr/bin/env bash
# Build the release a parent carries to the Pi: one archive with everything install.sh
# needs and no network: the app's wheel, every dependency's wheel for the Pi (pinned and
# hashed in deploy/requirements-pi.lock), the deploy scripts, the LED board's firmware and
# the guides.
#
#   deploy/dist.sh [--source DIR] [--out DIR] [--platform aarch64|x86_64]...
#   deploy/dist.sh --new-key      make the release signing key (once, outside the tree)
#
# Writes OUT/sorry-companion-<release>.tar.gz (default OUT: dist/) and its signature
# OUT/sorry-companion-<release>.tar.gz.sig, and prints the archive's path.
# <release> is the app's version and the first 8 hex digits of its wheel's sha256, so
# two builds of one version are two releases. Needs PyPI for the dependencies' wheels
# (pip's cache makes a rebuild quick). Default platform: aarch64 (Pi 4 and 5).
# The signing key is a GnuPG home outside the tree: $SORRY_COMPANION_SIGNING_HOME, else
# ~/.config/sorry-companion/signing. The archive carries its public half
# (deploy/release-key.gpg), which the Pi records at its first install and checks every
# update against (gpgv, before unpacking: deploy/release_update.py).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly HERE
SOURCE=$(dirname "$HERE")
OUT=$SOURCE/dist
PLATFORMS=()
PYTHON=${PYTHON:-python3}
SIGNING_HOME=${SORRY_COMPANION_SIGNING_HOME:-${XDG_CONFIG_HOME:-$HOME/.config}/sorry-companion/signing}
readonly KEY_NAME="Sorry! Table Companion releases <releases@sorry-companion.invalid>"
NEW_KEY=0

die() {
    printf 'dist.sh: %s\n' "$*" >&2
    exit 2
}

while (($#)); do
    case $1 in
        --source) SOURCE=${2:?--source needs a folder}; shift ;;
        --out) OUT=${2:?--out needs a folder}; shift ;;
        --platform)
            case ${2:-} in
                aarch64 | x86_64) PLATFORMS+=("$2") ;;
                *) die "--platform is aarch64 or x86_64, not '${2:-}'." ;;
            esac
            shift
            ;;
        --new-key) NEW_KEY=1 ;;
        -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
        *) die "unknown option '$1' (try --help)." ;;
    esac
    shift
done
((${#PLATFORMS[@]})) || PLATFORMS=(aarch64)
SOURCE=$(cd "$SOURCE" && pwd)

# The fingerprint of the one signing key in SIGNING_HOME (none: empty).
signing_key() {
    [[ -d $SIGNING_HOME ]] || return 0
    gpg --homedir "$SIGNING_HOME" --batch --with-colons --list-secret-keys 2>/dev/null |
        awk -F: '$1 == "fpr" { print $10; exit }'
}

command -v gpg >/dev/null || die "gpg is missing: install Debian's gnupg package (sudo apt-get install gnupg), which signs the release."
if ((NEW_KEY)); then
    [[ -z $(signing_key) ]] || die "$SIGNING_HOME already holds a signing key ($(signing_key)): releases signed by another key would not install as updates."
    mkdir -p -- "$(dirname -- "$SIGNING_HOME")"
    [[ -d $SIGNING_HOME ]] || mkdir -m 700 -- "$SIGNING_HOME"
    gpg --homedir "$SIGNING_HOME" --batch --passphrase '' --quick-generate-key "$KEY_NAME" ed25519 sign never 2>/dev/null
    gpgconf --homedir "$SIGNING_HOME" --kill gpg-agent 2>/dev/null || true
    printf 'dist.sh: made the signing key %s in %s: keep a copy of that folder safe; every update of a table must be signed by it.\n' "$(signing_key)" "$SIGNING_HOME"
    exit 0
fi
case $(realpath -m -- "$SIGNING_HOME")/ in
    "$SOURCE"/*) die "the signing key $SIGNING_HOME is inside the source tree: keep it outside (the default is ~/.config/sorry-companion/signing)." ;;
esac
FINGERPRINT=$(signing_key)
[[ -n $FINGERPRINT ]] || die "no release signing key in $SIGNING_HOME: make one with 'deploy/dist.sh --new-key' (make signing-key), or point SORRY_COMPANION_SIGNING_HOME at the folder that holds yours."
readonly FINGERPRINT
mkdir -p -- "$OUT"
OUT=$(cd "$OUT" && pwd)
readonly LOCK=$SOURCE/deploy/requirements-pi.lock
readonly CAMERA_LOCK=$SOURCE/deploy/requirements-camera.lock
readonly SYSTEMS=$SOURCE/deploy/supported-systems
[[ -r $LOCK ]] || die "no $LOCK: run 'make lock' first."
[[ -r $CAMERA_LOCK ]] || die "no $CAMERA_LOCK: run 'make lock' first."

work=$(mktemp -d "${TMPDIR:-/tmp}/sorry-dist.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

# The wheel, built from a copy so that the checkout gets no build files.
mkdir -p -- "$work/src" "$work/wheel"
tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=./screenshots -cf - . | tar -C "$work/src" -xf -
"$PYTHON" -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$work/wheel" "$work/src"
wheel=$(compgen -G "$work/wheel/sorry_companion-*.whl") || die "pip built no sorry_companion wheel."
version=$(basename -- "$wheel" | cut -d- -f2)
release=$version-$(sha256sum -- "$wheel" | cut -c1-8)
name=sorry-companion-$release
stage=$work/$name

mkdir -p -- "$stage/wheels" "$stage/deploy" "$stage/hardware/firmware" "$stage/companion" \
    "$stage/docs/spec"
cp -- "$wheel" "$stage/wheels/"
# The camera's wheels (numpy, OpenCV) ride along so that install.sh --camera needs no network.
# One set of wheels for each Python of deploy/supported-systems (Trixie's 3.13, Bookworm's
# 3.11): install.sh picks the one of the system it finds.
mapfile -t pythons < <(awk '!/^#/ && NF { print $2 }' "$SYSTEMS")
((${#pythons[@]})) || die "$SYSTEMS names no system."
for platform in "${PLATFORMS[@]}"; do
    for python in "${pythons[@]}"; do
        for lock in "$LOCK:manylinux2014" "$CAMERA_LOCK:manylinux_2_28"; do
            "$PYTHON" -m pip download --quiet --disable-pip-version-check --no-deps \
                --only-binary=:all: --platform "${lock##*:}_$platform" --python-version "$python" \
                --implementation cp --abi "cp${python/./}" --require-hashes -r "${lock%:*}" \
                -d "$stage/wheels"
        done
    done
done
cp -- "$SOURCE"/deploy/*.sh "$SOURCE"/deploy/*.service "$SOURCE"/deploy/*.rules \
    "$SOURCE"/deploy/*.conf "$SOURCE/deploy/release_update.py" "$LOCK" "$CAMERA_LOCK" "$SYSTEMS" \
    "$SOURCE/deploy/README.md" \
    "$stage/deploy/"
rm -f -- "$stage/deploy/dist.sh"
cp -- "$SOURCE"/hardware/firmware/*.py "$stage/hardware/firmware/"
cp -- "$SOURCE/hardware/README.md" "$stage/hardware/"
# The whole default configuration: the app's own tables and each game's (games/*/config.toml).
PYTHONPATH="$SOURCE" "$PYTHON" -m companion.default_config >"$stage/companion/default_config.toml"
# The parent's guide, its wiring picture and the specs it links travel with the release,
# so every link of the archive's guides lands inside the archive (tests/deploy).
cp -- "$SOURCE/docs/GUIDE.md" "$SOURCE/docs/wiring.svg" "$stage/docs/"
cp -- "$SOURCE"/docs/spec/*.md "$stage/docs/spec/"
printf '%s\n' "$release" >"$stage/RELEASE"
# The key the Pi records at its first install and checks every later update against.
gpg --homedir "$SIGNING_HOME" --batch --export "$FINGERPRINT" >"$stage/deploy/release-key.gpg"
cat >"$stage/README.txt" <<TEXT
Sorry! Table Companion, release $release

On the Raspberry Pi (Raspberry Pi OS Lite 64-bit: Trixie, or Bookworm):

    tar xzf $name.tar.gz
    cd $name
    sudo deploy/install.sh

Later releases install as updates, checked against this release's signing key
(fingerprint $FINGERPRINT) before anything of them is unpacked: copy the new
archive and its .tar.gz.sig to the Pi and give the archive's own name, as in

    sudo sorry-companion update ~/sorry-companion-0.2.0-1a2b3c4d.tar.gz

Building the table, step by step: docs/GUIDE.md. The install in detail: deploy/README.md.
Wiring, parts and the LED board: hardware/README.md.
TEXT
(cd "$stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/SHA256SUMS"
mv -- "$work/SHA256SUMS" "$stage/SHA256SUMS"
tar -C "$work" --owner=0 --group=0 -czf "$OUT/$name.tar.gz.partial" "$name"
gpg --homedir "$SIGNING_HOME" --batch --yes --local-user "$FINGERPRINT" --detach-sign \
    --output "$OUT/$name.tar.gz.sig.partial" "$OUT/$name.tar.gz.partial"
gpgconf --homedir "$SIGNING_HOME" --kill gpg-agent 2>/dev/null || true
mv -f -- "$OUT/$name.tar.gz.partial" "$OUT/$name.tar.gz"
mv -f -- "$OUT/$name.tar.gz.sig.partial" "$OUT/$name.tar.gz.sig"
printf '%s\n' "$OUT/$name.tar.gz"
