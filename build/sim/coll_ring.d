build/sim/coll_ring.o: sim/coll_ring.c sim/coll.h sim/maxmin.h sim/sim.h \
 sim/xmem.h
sim/coll.h:
sim/maxmin.h:
sim/sim.h:
sim/xmem.h:
