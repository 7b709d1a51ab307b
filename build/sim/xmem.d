build/sim/xmem.o: sim/xmem.c sim/xmem.h
sim/xmem.h:
