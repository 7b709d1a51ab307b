build/sim/maxmin.o: sim/maxmin.c sim/maxmin.h sim/xmem.h
sim/maxmin.h:
sim/xmem.h:
