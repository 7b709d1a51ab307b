# subnet.sh - a /24 of its own for a suite that builds a network on this
# machine (tests/suite_validate.sh, tests/suite_netns.sh); sourced, not run.
#
#   subnet_claim A.B START    sets $subnet to A.B.X, for the first X from
#                             START on (0 to 255, wrapping) that is free
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
