; Definitions of C++ source (tags.scm style): @definition.<kind> and its @name. A name
; qualified by its class (Query::parse) names a method.

(namespace_definition name: (_) @name body: (_)) @definition.module
(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.class
(union_specifier name: (_) @name body: (_)) @definition.class
(enum_specifier name: (_) @name body: (_)) @definition.enum
(function_definition
  declarator: (function_declarator declarator: (_) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (_) @name))) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator declarator: (_) @name))) @definition.function
(declaration
  declarator: (function_declarator declarator: (_) @name)) @definition.function
(field_declaration
  declarator: (function_declarator declarator: (_) @name)) @definition.method
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.const)
(preproc_def name: (identifier) @name value: (_)) @definition.const
