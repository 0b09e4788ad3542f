#!/usr/bin/env bash
# shellcheck disable=SC2016  # the hooks are for mmdebstrap, which gives them the root as $1
# Build the emulated Pi's base system once: Debian Bookworm arm64 from Debian's packages
# (mmdebstrap with qemu-user-static), as a raw ext4 disk plus its kernel and initrd.
#
#   deploy/pi-vm/build-base.sh CACHE_DIR
#
# It stands for a freshly flashed Raspberry Pi OS Lite: systemd, a root login only on
# the emulated machine's control channel, and the Debian packages that install.sh asks
# for (the machine has no network, so they are put in here instead of by apt-get).
# Kept in CACHE_DIR (outside the repository); rebuilt only when this script changes.
set -euo pipefail

readonly CACHE=${1:?usage: build-base.sh CACHE_DIR}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly HERE
readonly SUITE=bookworm
readonly MIRROR=http://deb.debian.org/debian
readonly IMAGE_SIZE=4G
# What a Raspberry Pi OS Lite image brings, and the packages install.sh installs there
# (its APT_PACKAGES less python3-lgpio, which only Raspberry Pi OS has).
readonly PACKAGES=(
    systemd-sysv udev dbus kmod polkitd linux-image-arm64 ca-certificates
    python3 python3-venv
    espeak-ng libmtdev1 libgl1 libgles2 libegl1 libgbm1 libdrm2 libgl1-mesa-dri
    libegl-mesa0 libasound2 alsa-utils
)

stamp=$(cat "$0" "$HERE/agent.py" | sha256sum | cut -c1-16)
if [[ -f $CACHE/base.stamp && $(<"$CACHE/base.stamp") == "$stamp" ]]; then
    echo "pi-vm: base image up to date in $CACHE"
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

# The kernel's initramfs gets only what this machine boots from (virtio disk, ext4):
# Debian's default (MODULES=most) copies some thousand modules one emulated process at a
# time, which took over half an hour on the 2 shared cores.
initramfs_setup='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"
echo MODULES=list > "$1/etc/initramfs-tools/conf.d/pi-vm.conf"
printf "%s\n" "#!/bin/sh" "[ \"\$1\" = prereqs ] && exit 0" ". /usr/share/initramfs-tools/hook-functions" "manual_add_modules virtio_pci virtio_blk ext4" > "$1/etc/initramfs-tools/hooks/pi-vm"
chmod 755 "$1/etc/initramfs-tools/hooks/pi-vm"'

mmdebstrap --arch=arm64 --variant=apt --include="$include" \
    --setup-hook="$initramfs_setup" \
    --customize-hook='echo sorry-pi > "$1/etc/hostname"' \
    --customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$1/etc/fstab"' \
    --customize-hook="copy-in $HERE/agent.py /usr/local/sbin" \
    --customize-hook="copy-in $HERE/pi-vm-agent.service /etc/systemd/system" \
    --customize-hook='chroot "$1" systemctl enable pi-vm-agent.service' \
    --customize-hook='chroot "$1" passwd -d root' \
    --customize-hook='mkdir -p "$1/boot/firmware"' \
    "$SUITE" "$root" "$MIRROR"

cp -L -- "$root/vmlinuz" "$CACHE/vmlinuz.new"
cp -L -- "$root/initrd.img" "$CACHE/initrd.img.new"
rm -f -- "$CACHE/base.img.new"
truncate -s "$IMAGE_SIZE" "$CACHE/base.img.new"
mkfs.ext4 -q -L sorry-pi -d "$root" "$CACHE/base.img.new"
for name in vmlinuz initrd.img base.img; do
    mv -f -- "$CACHE/$name.new" "$CACHE/$name"
done
printf '%s\n' "$stamp" >"$CACHE/base.stamp"
echo "pi-vm: base image built in $CACHE"
