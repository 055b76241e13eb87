; One query run per file collects every node the fact extractors need (cotbuilder/parse/facts.py).

; what is called: free, qualified and templated functions, and member functions (the captured node is the name)
(call_expression function: (identifier) @call.free)
(call_expression function: (template_function name: (identifier) @call.free))
(call_expression function: (qualified_identifier name: (identifier) @call.free))
(call_expression function: (qualified_identifier name: (template_function name: (identifier) @call.free)))
(call_expression function: (qualified_identifier name: (qualified_identifier name: (identifier) @call.free)))
(call_expression function: (qualified_identifier name: (qualified_identifier name: (template_function name: (identifier) @call.free))))
(call_expression function: (field_expression field: (field_identifier) @call.member))
(call_expression function: (field_expression field: (template_method name: (field_identifier) @call.member)))

; types named anywhere (TPipe, TQue, GlobalTensor, Matmul, ...)
(type_identifier) @type

; template arguments that are types: the dtypes a kernel is instantiated with
(template_argument_list (type_descriptor) @targ)

; function definitions (entries, methods, main, tiling functions)
(function_definition) @function

; classes and structs with a body (kernel classes, tiling structs)
(class_specifier name: (_) @class.name body: (field_declaration_list))
(struct_specifier name: (_) body: (field_declaration_list)) @struct

; integer constants: constexpr / const / plain initialised variables
(init_declarator declarator: (identifier) value: (_)) @const.init

; class-scope constants: static constexpr int32_t BUFFER_NUM = 2;
(field_declaration declarator: (field_identifier) @const.name default_value: (_))
