#!/bin/sh
# Installs the Debian packages gpusim builds and tests with.
set -e
PACKAGES="build-essential pkg-config libglib2.0-dev libyaml-dev \
libjson-glib-dev libcmocka-dev gnuplot-nox clang parallel \
libprotobuf-c-dev protobuf-c-compiler protobuf-compiler \
libsqlite3-dev sqlite3 libtracecmd-dev libtracefs-dev libtraceevent-dev"
if [ "$(id -u)" = 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo
else
	echo "gpusim: missing packages; as root run: apt-get install $PACKAGES" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends $PACKAGES
