; Definitions of Ruby source (tags.scm style): @definition.<kind> and its @name.

(module name: [(constant) (scope_resolution)] @name) @definition.module
(class name: [(constant) (scope_resolution)] @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
