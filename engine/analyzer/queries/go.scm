; Definitions of Go source (tags.scm style): @definition.<kind>, @name, and a method's
; receiver type as @owner. The first pattern that matches a node decides its kind.

(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @owner
        (pointer_type (type_identifier) @owner)
        (generic_type type: (type_identifier) @owner)
        (pointer_type (generic_type type: (type_identifier) @owner))
      ]))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.class
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(const_spec name: (identifier) @name) @definition.const
(var_spec name: (identifier) @name) @definition.const
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)
(method_elem name: (field_identifier) @name) @definition.method
