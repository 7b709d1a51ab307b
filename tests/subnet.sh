# subnet.sh - what a suite that builds a network on this machine
# (tests/suite_validate.sh, tests/suite_netns.sh) shares with other runs: a
# /24 of its own, and a turn at measuring emulated links; sourced, not run.
#
#   subnet_claim A.B START    sets $subnet to A.B.X, for the first X from
#                             START on (0 to 255, wrapping) that is free
#   subnet_turn SECONDS       waits, at most SECONDS, until no other suite
#                             of any run measures emulated links; 1 if it
#                             waited in vain
#
# X is free when this shell can take the lock file /tmp/dtplan-subnet-A.B.X.lock
# with flock(1) and no interface of the root namespace has an address in
# A.B.X.0/24.  The lock stays held on file descriptor 9 until the shell, and
# every child that inherited the descriptor, has exited: two runs at once
# (in one checkout or two) never get the same subnet, and a run that dies,
# even by SIGKILL, frees its subnet with it, so there is no stale claim to
# clean up.  The lock files stay in /tmp (empty).  Without flock(1) only the
# address check is made, which two runs starting together can both pass.
# Returns 1 when all 256 are taken.  Cost: one `ip addr` a subnet tried.
#
# The turn: flock(1) on /tmp/dtplan-emulated-links.lock, held on descriptor
# 8 for the suite's life.  Names and subnets keep two runs apart; the turn
# keeps their measurements apart: the MPI ranks of these suites poll while
# they wait, a core each, so two suites at once on a 2-core machine starve
# each other's ranks, and the calibration's fits come out poor (seen with two
# make test at once).  Without flock there is no turn.

subnet_claim() {
    _sc_base=$1
    _sc_x=$(($2 % 256))
    _sc_n=0
    while [ $_sc_n -lt 256 ]; do
        _sc_lock=/tmp/dtplan-subnet-$_sc_base.$_sc_x.lock
        _sc_free=1
        if command -v flock > /dev/null 2>&1; then
            # opened read-only: a lock file made by another user is still
            # usable (and exec with a redirection that fails ends the shell)
            [ -e "$_sc_lock" ] || (umask 0 && : > "$_sc_lock") 2> /dev/null
            if [ -r "$_sc_lock" ]; then
                exec 9< "$_sc_lock"
                flock -n 9 || _sc_free=0
            else
                _sc_free=0
            fi
        fi
        if [ $_sc_free = 1 ] && ip -4 addr show 2> /dev/null | grep -qF "inet $_sc_base.$_sc_x."; then
            _sc_free=0
        fi
        if [ $_sc_free = 1 ]; then
            subnet=$_sc_base.$_sc_x
            return 0
        fi
        _sc_x=$(((_sc_x + 1) % 256))
        _sc_n=$((_sc_n + 1))
    done
    exec 9<&-
    return 1
}

subnet_turn() {
    command -v flock > /dev/null 2>&1 || return 0
    _st_lock=/tmp/dtplan-emulated-links.lock
    [ -e "$_st_lock" ] || (umask 0 && : > "$_st_lock") 2> /dev/null
    [ -r "$_st_lock" ] || return 0
    exec 8< "$_st_lock"
    flock -w "$1" 8
}
