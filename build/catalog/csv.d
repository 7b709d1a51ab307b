build/catalog/csv.o: catalog/csv.c catalog/csv.h catalog/../sim/xmem.h
catalog/csv.h:
catalog/../sim/xmem.h:
