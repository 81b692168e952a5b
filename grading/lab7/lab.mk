# grading/lab7/lab.mk: lab 7's make fragment (the Makefile includes every
# grading/lab*/lab.mk). Lab 7's tests run in the suite; this is its cost figure.
verif-cost: initramfs lab4-tools ## lab 7: the verifier's counts for lab 4's bpf_loop programs before and after the fix (BEFORE= AFTER=)
	@grading/lab7/verif-cost "$(or $(BEFORE),solution/06)" "$(or $(AFTER),solution/07)"
.PHONY: verif-cost
