build/cli/atomic.o: cli/atomic.c cli/atomic.h cli/../sim/xmem.h
cli/atomic.h:
cli/../sim/xmem.h:
