build/sim/coll_ps.o: sim/coll_ps.c sim/coll.h sim/maxmin.h sim/sim.h \
 sim/xmem.h
sim/coll.h:
sim/maxmin.h:
sim/sim.h:
sim/xmem.h:
