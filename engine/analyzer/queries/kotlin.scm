; Definitions of Kotlin source (tags.scm style): @definition.<kind> and its @name.

(class_declaration "interface" name: (_) @name) @definition.interface
(class_declaration name: (_) @name (enum_class_body)) @definition.enum
(class_declaration name: (_) @name) @definition.class
(object_declaration name: (_) @name) @definition.class
(function_declaration name: (_) @name) @definition.function
(type_alias (identifier) @name) @definition.type
