#!/bin/sh
# agent.sh - mpirun's launch agent for the emulated hosts (validate/hosts.sh):
# called as `agent.sh HOST COMMAND...` in place of ssh, it runs COMMAND in the
# namespace of HOST (10.79.0.N runs in dvhN; VALIDATE_NS changes the prefix).
# The hosts share one file system and host name: each gets its own TMPDIR so
# that their Open MPI daemons do not race for one session directory.
host=$1
shift
ns=${VALIDATE_NS:-dvh}${host##*.}
dir=${TMPDIR:-/tmp}/$ns
mkdir -p "$dir"
exec ip netns exec "$ns" env TMPDIR="$dir" sh -c "$*"
