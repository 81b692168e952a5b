// SPDX-License-Identifier: GPL-2.0
/*
 * yaml-check: a YAML file parses, and holds the keys named.
 *
 *   yaml-check FILE [KEY.KEY...]...
 *	parses FILE with libyaml (one document); for each dotted path, each
 *	part a mapping's key or a sequence's index (from 0), checks that it
 *	leads to a node. Prints the parser's error with its line and column,
 *	or the first path missing.
 *   yaml-check FILE --get KEY.KEY...
 *	prints the scalar at that path (a step's script, say).
 *
 * Exit status: 0 parsed and every path found, 1 a parse error or a path
 * missing, 2 usage or I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* The node under KEY in the mapping NODE (at index KEY in a sequence), or NULL. */
static yaml_node_t *child(yaml_document_t *doc, yaml_node_t *node, const char *key, size_t len)
{
	yaml_node_pair_t *pair;

	if (node && node->type == YAML_SEQUENCE_NODE) {
		char *end;
		long i = strtol(key, &end, 10);
		yaml_node_item_t *items = node->data.sequence.items.start;

		if (end != key + len || i < 0 || i >= node->data.sequence.items.top - items)
			return NULL;
		return yaml_document_get_node(doc, items[i]);
	}
	if (!node || node->type != YAML_MAPPING_NODE)
		return NULL;
	for (pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);

		if (k && k->type == YAML_SCALAR_NODE && k->data.scalar.length == len &&
		    !memcmp(k->data.scalar.value, key, len))
			return yaml_document_get_node(doc, pair->value);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	FILE *f;
	int i, ret = 0, get = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: yaml-check FILE [KEY.KEY...]...\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		fprintf(stderr, "yaml-check: %s:%zu:%zu: %s%s%s\n", argv[1], parser.problem_mark.line + 1,
			parser.problem_mark.column + 1, parser.problem ? parser.problem : "parse error",
			parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		fclose(f);
		return 1;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		fprintf(stderr, "yaml-check: %s: no document\n", argv[1]);
		ret = 1;
	}
	for (i = 2; i < argc && !ret; i++) {
		const char *p = argv[i];
		yaml_node_t *node = root;

		if (!strcmp(p, "--get")) {
			get = 1;
			continue;
		}
		while (node && *p) {
			size_t len = strcspn(p, ".");

			node = child(&doc, node, p, len);
			p += len + (p[len] == '.');
		}
		if (!node) {
			fprintf(stderr, "yaml-check: %s: no %s\n", argv[1], argv[i]);
			ret = 1;
		} else if (get && node->type != YAML_SCALAR_NODE) {
			fprintf(stderr, "yaml-check: %s: %s is not a scalar\n", argv[1], argv[i]);
			ret = 1;
		} else if (get) {
			fwrite(node->data.scalar.value, 1, node->data.scalar.length, stdout);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
	return ret;
}
