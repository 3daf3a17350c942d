/**
 * Composition of permission classes, as DRF's `&`, `|` and `~`: `and(A, B)`, `or(A, B)` and
 * `not(A)` each return a permission class, usable in `permissionClasses` and composable again.
 *
 * @example
 * ```ts
 * class ReadOnly extends BasePermission {
 *   override hasPermission(request: Request) {
 *     return request.isSafeMethod;
 *   }
 * }
 *
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   // staff, or anyone reading
 *   override permissionClasses = [or(IsAdminUser, ReadOnly)];
 * }
 * ```
 * @module
 */
import type { Request } from '../http/request.ts';
import { isPromiseLike } from '../utils/maybe-promise.ts';
import type { Permission, PermissionClass } from './permissions.ts';

type Answer = boolean | Promise<boolean>;

/** `a && b`, waiting only when one of them answered with a promise; `b` runs only if needed. */
function both(a: Answer, b: () => Answer): Answer {
  if (isPromiseLike(a)) return Promise.resolve(a).then((yes) => (yes ? b() : false));
  return a ? b() : false;
}

/** `a || b`, as {@link both}. */
function either(a: Answer, b: () => Answer): Answer {
  if (isPromiseLike(a)) return Promise.resolve(a).then((yes) => (yes ? true : b()));
  return a ? true : b();
}

function negate(a: Answer): Answer {
  return isPromiseLike(a) ? Promise.resolve(a).then((yes) => !yes) : !a;
}

function className(operator: string, operands: readonly PermissionClass[]): string {
  return `${operator}(${operands.map((operand) => operand.name).join(', ')})`;
}

/**
 * Allows what every operand allows (DRF's `A & B`), on both checks. The 403's message is the
 * message of the first operand that refused.
 */
export function and(...operands: readonly PermissionClass[]): PermissionClass {
  const Composed = class implements Permission {
    readonly #operands = operands.map((Operand) => new Operand());
    #refused: Permission | undefined;

    get message(): string | undefined {
      return this.#refused?.message;
    }

    #all(index: number, ask: (p: Permission) => Answer): Answer {
      const operand = this.#operands[index];
      if (!operand) return true;
      return both(
        either(ask(operand), () => {
          this.#refused = operand;
          return false;
        }),
        () => this.#all(index + 1, ask),
      );
    }

    hasPermission(request: Request, view: unknown): Answer {
      return this.#all(0, (p) => p.hasPermission(request, view));
    }

    hasObjectPermission(request: Request, view: unknown, obj: unknown): Answer {
      return this.#all(0, (p) => p.hasObjectPermission(request, view, obj));
    }
  };
  Object.defineProperty(Composed, 'name', { value: className('and', operands) });
  return Composed;
}

/**
 * Allows what any operand allows (DRF's `A | B`). On an object, an operand allows only when it
 * allows both the request and the object, as DRF does since 3.14: `or(IsAdminUser, IsOwner)`
 * must not let a non-owner through because `IsAdminUser` has no object check of its own.
 */
export function or(...operands: readonly PermissionClass[]): PermissionClass {
  const Composed = class implements Permission {
    readonly #operands = operands.map((Operand) => new Operand());

    get message(): string | undefined {
      // The last operand's message, when every one refused (DRF keeps the default).
      return this.#operands[this.#operands.length - 1]?.message;
    }

    #any(index: number, ask: (p: Permission) => Answer): Answer {
      const operand = this.#operands[index];
      if (!operand) return false;
      return either(ask(operand), () => this.#any(index + 1, ask));
    }

    hasPermission(request: Request, view: unknown): Answer {
      return this.#any(0, (p) => p.hasPermission(request, view));
    }

    hasObjectPermission(request: Request, view: unknown, obj: unknown): Answer {
      return this.#any(0, (p) =>
        both(p.hasPermission(request, view), () => p.hasObjectPermission(request, view, obj)),
      );
    }
  };
  Object.defineProperty(Composed, 'name', { value: className('or', operands) });
  return Composed;
}

/** Allows what the operand refuses (DRF's `~A`), on both checks. */
export function not(Operand: PermissionClass): PermissionClass {
  const Composed = class implements Permission {
    readonly #operand = new Operand();

    hasPermission(request: Request, view: unknown): Answer {
      return negate(this.#operand.hasPermission(request, view));
    }

    hasObjectPermission(request: Request, view: unknown, obj: unknown): Answer {
      return negate(this.#operand.hasObjectPermission(request, view, obj));
    }
  };
  Object.defineProperty(Composed, 'name', { value: className('not', [Operand]) });
  return Composed;
}
