build/sim/coll_tree.o: sim/coll_tree.c sim/coll.h sim/maxmin.h sim/sim.h \
 sim/xmem.h
sim/coll.h:
sim/maxmin.h:
sim/sim.h:
sim/xmem.h:
