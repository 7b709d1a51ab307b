#!/bin/sh
# agent.sh - mpirun's launch agent for the emulated hosts (validate/hosts.sh):
# called as `agent.sh HOST COMMAND...` in place of ssh, it runs COMMAND in the
# namespace of HOST (10.79.0.N runs in dvhN; VALIDATE_NS changes the prefix).
host=$1
shift
exec ip netns exec "${VALIDATE_NS:-dvh}${host##*.}" sh -c "$*"
