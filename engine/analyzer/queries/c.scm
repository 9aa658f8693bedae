; Definitions of C source (tags.scm style): @definition.<kind> and its @name. A function's
; name sits under its declarator, behind up to two pointer declarators.

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(declaration
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.const)
(preproc_def name: (identifier) @name value: (_)) @definition.const
