build/sim/sim.o: sim/sim.c sim/sim.h sim/xmem.h sim/coll.h sim/maxmin.h \
 sim/evq.h
sim/sim.h:
sim/xmem.h:
sim/coll.h:
sim/maxmin.h:
sim/evq.h:
