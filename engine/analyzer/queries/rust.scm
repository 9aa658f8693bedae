; Definitions of Rust source, in the style of tree-sitter's tags.scm: each match is a
; @definition.<kind> node and its @name (an impl also its @trait). The first pattern that
; matches a node decides its kind.

(impl_item trait: (_) @trait type: (_) @name) @definition.impl
(impl_item type: (_) @name !trait) @definition.impl
(trait_item name: (type_identifier) @name) @definition.interface
(struct_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(type_item name: (type_identifier) @name) @definition.type
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(mod_item name: (identifier) @name body: (_)) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.const
(static_item name: (identifier) @name) @definition.const
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)
(enum_variant_list (enum_variant name: (identifier) @name) @definition.field)
