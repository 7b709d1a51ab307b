build/sim/coll_hier.o: sim/coll_hier.c sim/coll.h sim/maxmin.h sim/sim.h \
 sim/xmem.h
sim/coll.h:
sim/maxmin.h:
sim/sim.h:
sim/xmem.h:
