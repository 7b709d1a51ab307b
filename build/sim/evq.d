build/sim/evq.o: sim/evq.c sim/evq.h sim/xmem.h
sim/evq.h:
sim/xmem.h:
