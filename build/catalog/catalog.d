build/catalog/catalog.o: catalog/catalog.c catalog/catalog.h \
 catalog/../sim/xmem.h catalog/csv.h
catalog/catalog.h:
catalog/../sim/xmem.h:
catalog/csv.h:
