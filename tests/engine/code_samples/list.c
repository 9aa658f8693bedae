/* SPDX-License-Identifier: MIT */

/* A singly linked list of strings, owned by the caller. */

#include <stdlib.h>

/* One node of the list. */
struct node {
    char *value;
    struct node *next;
};

typedef struct node node_t;

/* Push a copy of value at the head of the list. */
static node_t *list_push(node_t *head, const char *value)
{
    node_t *n = malloc(sizeof *n);
    n->next = head;
    return n;
}

/* Free every node of the list. */
void list_free(node_t *head)
{
    while (head) {
        node_t *next = head->next;
        free(head);
        head = next;
    }
}

enum color { RED, GREEN };
