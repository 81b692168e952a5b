# grading/lab4/lab.mk: lab 4's make fragment. The Makefile includes every
# grading/lab*/lab.mk: a host-side lab's tools are its own folder's.
# Lab 4, verifier scale: the guest's loader and exerciser (static, libbpf),
# the host's report (tables, CSV) and the host's judge (the grading checks).
LAB4 := $(WORK)/lab4
LAB4_GUEST_SRC := grading/lab4/verif-load.c grading/lab4/exercise.c grading/lab4/scale-input.c \
	grading/guest/guest.c
lab4-tools: $(LAB4)/verif-load $(BIN)/verif-report $(BIN)/lab4-judge
$(LAB4)/verif-load: $(LAB4_GUEST_SRC) grading/guest/guest.h grading/lab4/exercise.h \
		grading/lab4/scale-input.h $(LAB4)/loop_probe.skel.h $(LAB4)/task_probe.skel.h
	$(CC) $(CFLAGS) -static -Igrading/guest -I$(LAB4) -o $@ $(LAB4_GUEST_SRC) -lbpf -lelf -lz -lzstd
$(LAB4)/%_probe.bpf.o: grading/lab4/%_probe.bpf.c
	@mkdir -p $(dir $@)
	clang $(BPF_CFLAGS) -c $< -o $@
$(LAB4)/%_probe.skel.h: $(LAB4)/%_probe.bpf.o
	bpftool gen skeleton $< name $*_probe >$@.tmp && mv $@.tmp $@
$(BIN)/verif-report: grading/lab4/verif-report.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/lab4-judge: grading/lab4/lab4-judge.c grading/lab4/scale-input.c grading/lab4/scale-input.h | $(BIN)
	$(CC) $(CFLAGS) -o $@ grading/lab4/lab4-judge.c grading/lab4/scale-input.c grading/pipeline/registry.c
$(BIN)/lab4-judge: grading/pipeline/ktap.h $(REGISTRY)
host-tools: $(BIN)/lab4-judge
verif-scale: initramfs lab4-tools ## lab 4: verifier figures of pyperf600 and strobemeta, unrolled and bpf_loop (REF=)
	@grading/lab4/verif-scale "$(REF)"
.PHONY: lab4-tools verif-scale
