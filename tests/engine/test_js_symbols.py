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
