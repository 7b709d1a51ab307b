#!/bin/sh
# Install the Debian packages dtplan builds against (root, or sudo when present).
set -e
pkgs="build-essential pkg-config libgsl-dev libcjson-dev libyaml-dev libopenmpi-dev openmpi-bin iproute2"
missing=""
for p in $pkgs; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO=sudo
echo "setup: installing$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
