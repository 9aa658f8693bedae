"""Exported names of ordinary JavaScript and TypeScript modules (issue #26).

Each case is a shape found in real code (TypeScript handbook, DefinitelyTyped ``.d.ts``
files, React components, Node libraries); the expected names and kinds are what a person
reading the file would list as its exports.
"""

from __future__ import annotations

import pytest

from engine.analyzer.js_symbols import js_symbols

ORDINARY = [
    pytest.param(
        "export const a = 1, b = 2;\nexport let x = 0, y = 1;\nexport var p, q = 'v';\n",
        "m.ts",
        {"a": "const", "b": "const", "x": "const", "y": "const", "p": "const", "q": "const"},
        id="const-let-var-lists",
    ),
    pytest.param(
        "export function parse(text: string, opts?: Options): Node {\n  return null!;\n}\n",
        "m.ts",
        {"parse": "function"},
        id="function",
    ),
    pytest.param(
        "export async function fetchUser(id: string): Promise<User> {\n  return get(id);\n}\n",
        "m.ts",
        {"fetchUser": "function"},
        id="async-function",
    ),
    pytest.param(
        "export function* walk(node) { yield node; }\n"
        "export async function *stream(chunks) { for await (const c of chunks) yield c; }\n",
        "m.js",
        {"walk": "function", "stream": "function"},
        id="generator-functions",
    ),
    pytest.param(
        "export class Store<S extends object = {}> extends Base<S> implements Disposable {\n"
        "  dispose(): void {}\n}\n",
        "m.ts",
        {"Store": "class"},
        id="class",
    ),
    pytest.param(
        "export default function App({ title }: Props) {\n  return <h1>{title}</h1>;\n}\n",
        "App.tsx",
        {"App": "function"},
        id="default-function",
    ),
    pytest.param(
        "export default class Router extends EventEmitter {\n  route() {}\n}\n",
        "router.js",
        {"Router": "class"},
        id="default-class",
    ),
    pytest.param(
        "export default interface ButtonProps {\n  label: string;\n}\n",
        "Button.ts",
        {"ButtonProps": "interface"},
        id="default-interface",
    ),
    pytest.param(
        "export interface Options<T = unknown> extends BaseOptions<T> {\n  strict?: boolean;\n}\n",
        "m.ts",
        {"Options": "interface"},
        id="interface",
    ),
    pytest.param(
        "export type Handler<T = string, R = void> = (event: T) => R;\n"
        "export type Maybe<T = {}> = T | null;\n",
        "m.ts",
        {"Handler": "type", "Maybe": "type"},
        id="type-with-generic-defaults",
    ),
    pytest.param(
        "export enum Direction {\n  Up = 1,\n  Down,\n}\n",
        "m.ts",
        {"Direction": "enum"},
        id="enum",
    ),
    pytest.param(
        "export const enum Flags { None = 0, Bold = 1 << 0 }\n",
        "m.ts",
        {"Flags": "enum"},
        id="const-enum",
    ),
    pytest.param(
        "export namespace Validation {\n"
        "  export interface StringValidator { isAcceptable(s: string): boolean; }\n"
        "  export const lettersRegexp = /^[A-Za-z]+$/;\n}\n",
        "m.ts",
        {"Validation": "const"},
        id="namespace",
    ),
    pytest.param(
        "export declare const VERSION: string;\n"
        "export declare function configure(options: Options): void;\n"
        "export declare class Client { constructor(url: string); }\n",
        "index.d.ts",
        {"VERSION": "const", "configure": "function", "Client": "class"},
        id="declare",
    ),
    pytest.param(
        "export abstract class Repository<T extends { id: string }> {\n"
        "  abstract find(id: string): Promise<T>;\n}\n",
        "m.ts",
        {"Repository": "class"},
        id="abstract-class",
    ),
    pytest.param(
        "export const useCounter = (initial: number = 0): [number, () => void] => {\n"
        "  return [initial, () => {}];\n};\n"
        "export const handler: Handler<APIGatewayEvent> = async (event) => ({ status: 200 });\n",
        "m.ts",
        {"useCounter": "function", "handler": "function"},
        id="arrow-functions-assigned-to-const",
    ),
    pytest.param(
        "export const café = 1;\nexport function grüße() {}\nexport class Ñandú {}\n"
        "export const 数据 = [];\n",
        "m.js",
        {"café": "const", "grüße": "function", "Ñandú": "class", "数据": "const"},
        id="non-ascii-identifiers",
    ),
]


@pytest.mark.parametrize(("source", "rel", "expected"), ORDINARY)
def test_ordinary_exports(source: str, rel: str, expected: dict[str, str]) -> None:
    assert {s.name: s.kind for s in js_symbols(source, rel)} == expected


def _handlers_interface(n: int) -> str:
    """hono's ``CreateHandlersInterface`` (src/helper/factory): call signatures without
    semicolons, the last one taking ``n`` handlers with three type parameters each."""
    params = [
        f"    I{k} extends Input = {' & '.join(f'I{j}' for j in range(1, k)) or '{}'},"
        for k in range(1, n + 1)
    ]
    params += [f"    R{k} extends HandlerResponse<any> = any," for k in range(1, n + 1)]
    params += [
        f"    E{k + 1} extends Env = Merge<[E, {', '.join(f'E{j}' for j in range(2, k + 1))}]>,"
        for k in range(1, n + 1)
    ]
    handlers = [f"    handler{k}: H<E{k + 1}, P, I{k}, R{k}>," for k in range(1, n + 1)]
    results = [f"    H<E{k + 1}, P, I{k}, R{k}>," for k in range(1, n + 1)]
    return "\n".join([
        "export interface CreateHandlersInterface<E extends Env, P extends string> {",
        "  <I1 extends Input = {}, R1 extends HandlerResponse<any> = any, E2 extends Env = E>(",
        "    handler1: H<E2, P, I1, R1>",
        "  ): [H<E2, P, I1, R1>]",
        "",
        f"  // handler x{n}",
        "  <", *params, "  >(", *handlers, "  ): [", *results, "  ]",
        "}",
    ])  # fmt: skip


def test_exports_after_a_construct_the_grammar_loses_are_still_found() -> None:
    # tree-sitter-typescript gives up on this interface and swallows the rest of the file
    # into ERROR nodes; the exports in them are parsed again, at their own lines.
    interface = _handlers_interface(10)
    rest = (
        "\n\nexport class Factory<E = Env> {\n  createApp = () => new Hono<E>()\n}\n"
        "\nexport const createFactory = <E = Env>(init?: Init<E>) => new Factory<E>(init)\n"
        "\nexport const createMiddleware = <\n  E extends Env = any,\n>(\n"
        "  middleware: MiddlewareHandler<E>\n): MiddlewareHandler<E> => middleware\n"
    )
    first = interface.count("\n") + 3
    found = {s.name: (s.kind, s.line) for s in js_symbols(interface + rest, "factory/index.ts")}

    assert found == {
        "CreateHandlersInterface": ("interface", 1),
        "Factory": ("class", first),
        "createFactory": ("function", first + 4),
        "createMiddleware": ("function", first + 6),
    }


@pytest.mark.parametrize("rel", ["index.js", "index.ts"])
def test_an_export_list_naming_the_default(rel: str) -> None:
    # cidr-regex's bundled dist/index.js; the JavaScript grammar spells the alias apart.
    source = "const cidrRegex = () => 1;\nconst v4 = 2;\nexport { cidrRegex as default, v4 };\n"

    found = {(s.name, s.kind, s.detail) for s in js_symbols(source, rel)}

    assert found == {("cidrRegex", "default", "default export"), ("v4", "const", "")}


def test_typescript_module_forms() -> None:
    source = (
        "export import Parser = Internal.Parser;\n"
        "export declare namespace Express { interface Request { user?: User } }\n"
        "export module Legacy { export const x = 1; }\n"
        "export as namespace MyLib;\n"
        "declare module 'untyped-lib' { export function f(): void; }\n"
        "export function overloaded(a: string): void;\n"
        "export function overloaded(a: number): void;\n"
        "export function overloaded(a: unknown) {}\n"
        "class Api {}\nexport = Api;\n"
    )
    found = {s.name: (s.kind, s.line, s.detail) for s in js_symbols(source, "index.d.ts")}

    assert found == {
        "Parser": ("const", 1, "import alias"),
        "Express": ("const", 2, "namespace"),
        "Legacy": ("const", 3, "namespace"),
        "overloaded": ("function", 6, ""),
        "Api": ("default", 10, "export ="),
    }
