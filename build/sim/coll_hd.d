build/sim/coll_hd.o: sim/coll_hd.c sim/coll.h sim/maxmin.h sim/sim.h \
 sim/xmem.h
sim/coll.h:
sim/maxmin.h:
sim/sim.h:
sim/xmem.h:
