#!/usr/bin/env bash
# shellcheck disable=SC2016  # the hooks are for mmdebstrap, which gives them the root as $1
# Build the emulated Pi's base system once: Debian arm64 (Trixie, or Bookworm) from
# Debian's packages (mmdebstrap with qemu-user-static), as a raw ext4 disk plus its kernel
# and initrd, and beside it a package archive with what install.sh will ask for.
#
#   deploy/pi-vm/build-base.sh CACHE_DIR SUITE PACKAGE...
#
# The base stands for a freshly flashed Raspberry Pi OS Lite: systemd, udev, python3, apt
# (with gpgv), sudo, and a root login only on the emulated machine's control channel;
# none of the packages install.sh installs (Mesa, espeak-ng, polkitd, python3-venv, ...).
# Those PACKAGES (install.sh's own list, from its dry run) are downloaded with their
# dependencies into CACHE_DIR/SUITE/debs with a Packages index: the stick carries them,
# and the machine's apt reads them from there, standing for the Pi's network (the machine
# has none). Kept in CACHE_DIR/SUITE (outside the repository); rebuilt only when this
# script, the agent or the package list changes.
set -euo pipefail

readonly CACHE_ROOT=${1:?usage: build-base.sh CACHE_DIR SUITE PACKAGE...}
readonly SUITE=${2:?usage: build-base.sh CACHE_DIR SUITE PACKAGE...}
shift 2
readonly WANTED=("$@")
readonly CACHE=$CACHE_ROOT/$SUITE
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly HERE
readonly MIRROR=http://deb.debian.org/debian
readonly IMAGE_SIZE=4G
# What a Raspberry Pi OS Lite image brings that the install relies on (apt and gpgv, which
# apt needs; python3; sudo), and what this machine needs to boot and be driven.
readonly PACKAGES=(
    systemd-sysv udev dbus kmod linux-image-arm64 ca-certificates sudo python3 gpgv passwd
)

stamp=$(cat "$0" "$HERE/agent.py" <(printf '%s\n' "${WANTED[@]}") | sha256sum | cut -c1-16)
if [[ -f $CACHE/base.stamp && $(<"$CACHE/base.stamp") == "$stamp" ]]; then
    echo "pi-vm: $SUITE base image up to date in $CACHE"
    exit 0
fi
mkdir -p -- "$CACHE"
rm -f -- "$CACHE/base.stamp"

if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
    update-binfmts --enable qemu-aarch64
fi

work=$(mktemp -d "${TMPDIR:-/var/tmp}/sorry-pi-vm.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
root=$work/root
include=$(IFS=,; printf '%s' "${PACKAGES[*]}")
rm -rf -- "$CACHE/debs.new"
mkdir -p -- "$CACHE/debs.new"

# The kernel's initramfs gets only what this machine boots from (virtio disk, ext4):
# Debian's default (MODULES=most) copies some thousand modules one emulated process at a
# time, which took over half an hour on the 2 shared cores.
initramfs_setup='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"
echo MODULES=list > "$1/etc/initramfs-tools/conf.d/pi-vm.conf"
printf "%s\n" "#!/bin/sh" "[ \"\$1\" = prereqs ] && exit 0" ". /usr/share/initramfs-tools/hook-functions" "manual_add_modules virtio_pci virtio_blk ext4" > "$1/etc/initramfs-tools/hooks/pi-vm"
chmod 755 "$1/etc/initramfs-tools/hooks/pi-vm"'

# install.sh's packages, with every dependency the base lacks, downloaded only (the base
# must not have them), then the apt cache emptied again.
download="chroot \"\$1\" apt-get install --download-only -y --no-install-recommends ${WANTED[*]}"

mmdebstrap --arch=arm64 --variant=apt --include="$include" \
    --setup-hook="$initramfs_setup" \
    --customize-hook='echo sorry-pi > "$1/etc/hostname"' \
    --customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$1/etc/fstab"' \
    --customize-hook="copy-in $HERE/agent.py /usr/local/sbin" \
    --customize-hook="copy-in $HERE/pi-vm-agent.service /etc/systemd/system" \
    --customize-hook='chroot "$1" systemctl enable pi-vm-agent.service' \
    --customize-hook='chroot "$1" passwd -d root' \
    --customize-hook='mkdir -p "$1/boot/firmware"' \
    --customize-hook="$download" \
    --customize-hook="sync-out /var/cache/apt/archives $CACHE/debs.new" \
    --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
    "$SUITE" "$root" "$MIRROR"

rm -rf -- "$CACHE/debs.new/partial" "$CACHE/debs.new/lock"
(cd "$CACHE/debs.new" && dpkg-scanpackages --multiversion . /dev/null >Packages 2>/dev/null)
cp -L -- "$root/vmlinuz" "$CACHE/vmlinuz.new"
cp -L -- "$root/initrd.img" "$CACHE/initrd.img.new"
rm -f -- "$CACHE/base.img.new"
truncate -s "$IMAGE_SIZE" "$CACHE/base.img.new"
mkfs.ext4 -q -L sorry-pi -d "$root" "$CACHE/base.img.new"
for name in vmlinuz initrd.img base.img; do
    mv -f -- "$CACHE/$name.new" "$CACHE/$name"
done
rm -rf -- "$CACHE/debs"
mv -- "$CACHE/debs.new" "$CACHE/debs"
printf '%s\n' "$stamp" >"$CACHE/base.stamp"
echo "pi-vm: $SUITE base image built in $CACHE ($(find "$CACHE/debs" -name '*.deb' | wc -l) packages for install.sh beside it)"
