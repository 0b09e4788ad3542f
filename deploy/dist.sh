#!/usr/bin/env bash
# Build the release a parent carries to the Pi: one archive with everything install.sh
# needs and no network: the app's wheel, every dependency's wheel for the Pi (pinned and
# hashed in deploy/requirements-pi.lock), the deploy scripts, the LED board's firmware and
# the guides.
#
#   deploy/dist.sh [--source DIR] [--out DIR] [--platform aarch64|x86_64]...
#
# Writes OUT/sorry-companion-<release>.tar.gz (default OUT: dist/) and prints its path.
# <release> is the app's version and the first 8 hex digits of its wheel's sha256, so
# two builds of one version are two releases. Needs PyPI for the dependencies' wheels
# (pip's cache makes a rebuild quick). Default platform: aarch64 (Pi 4 and 5).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly HERE
SOURCE=$(dirname "$HERE")
OUT=$SOURCE/dist
PLATFORMS=()
PYTHON=${PYTHON:-python3}

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
        -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
        *) die "unknown option '$1' (try --help)." ;;
    esac
    shift
done
((${#PLATFORMS[@]})) || PLATFORMS=(aarch64)
SOURCE=$(cd "$SOURCE" && pwd)
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

mkdir -p -- "$stage/wheels" "$stage/deploy" "$stage/hardware/firmware" "$stage/companion"
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
    "$SOURCE"/deploy/*.conf "$LOCK" "$CAMERA_LOCK" "$SYSTEMS" "$SOURCE/deploy/README.md" \
    "$stage/deploy/"
rm -f -- "$stage/deploy/dist.sh"
cp -- "$SOURCE"/hardware/firmware/*.py "$stage/hardware/firmware/"
cp -- "$SOURCE/hardware/README.md" "$stage/hardware/"
cp -- "$SOURCE/companion/default_config.toml" "$stage/companion/"
printf '%s\n' "$release" >"$stage/RELEASE"
cat >"$stage/README.txt" <<TEXT
Sorry! Table Companion, release $release

On the Raspberry Pi (Raspberry Pi OS Lite 64-bit: Trixie, or Bookworm):

    tar xzf $name.tar.gz
    cd $name
    sudo deploy/install.sh

The whole guide: deploy/README.md. Wiring, parts and the LED board: hardware/README.md.
TEXT
(cd "$stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/SHA256SUMS"
mv -- "$work/SHA256SUMS" "$stage/SHA256SUMS"
tar -C "$work" --owner=0 --group=0 -czf "$OUT/$name.tar.gz.partial" "$name"
mv -f -- "$OUT/$name.tar.gz.partial" "$OUT/$name.tar.gz"
printf '%s\n' "$OUT/$name.tar.gz"
