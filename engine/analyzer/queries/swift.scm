; Definitions of Swift source (tags.scm style): @definition.<kind> and its @name (an
; extension also the protocol it adopts, as @trait).

(class_declaration
  declaration_kind: "extension"
  name: (_) @name
  (inheritance_specifier inherits_from: (_) @trait)) @definition.impl
(class_declaration declaration_kind: "extension" name: (_) @name) @definition.impl
(class_declaration declaration_kind: "enum" name: (_) @name) @definition.enum
(class_declaration name: (_) @name) @definition.class
(protocol_declaration name: (_) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (_) @name) @definition.method
(init_declaration "init" @name) @definition.method
(typealias_declaration name: (_) @name) @definition.type
