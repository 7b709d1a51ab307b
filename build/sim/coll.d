build/sim/coll.o: sim/coll.c sim/coll.h sim/maxmin.h sim/sim.h sim/xmem.h
sim/coll.h:
sim/maxmin.h:
sim/sim.h:
sim/xmem.h:
