build/cli/scenario.o: cli/scenario.c cli/scenario.h \
 cli/../catalog/catalog.h cli/../catalog/../sim/xmem.h
cli/scenario.h:
cli/../catalog/catalog.h:
cli/../catalog/../sim/xmem.h:
