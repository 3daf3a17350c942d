/**
 * An IPv4 or IPv6 address: DRF's `IPAddressField`.
 * @module
 */
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { CharField, type CharFieldOptions } from './char-field.ts';
import {
  checkFieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
  type RunContext,
} from './field.ts';

/** Options of {@link IPAddressField}. */
export interface IPAddressFieldOptions extends CharFieldOptions {
  /** Which addresses are accepted: `'both'` (default), `'IPv4'` or `'IPv6'` (any case). */
  readonly protocol?: 'both' | 'IPv4' | 'IPv6' | 'ipv4' | 'ipv6';
  /** An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) becomes its IPv4 address; only with `'both'`. */
  readonly unpackIpv4?: boolean;
}

/** Django's longest IPv6 address text (`MAX_IPV6_ADDRESS_LENGTH`). */
const MAX_IPV6_LENGTH = 39;

/**
 * An IP address, as Django validates and cleans it: IPv4 in dotted decimal without leading
 * zeros; IPv6 in any valid spelling, stored compressed in lower case (`2001:DB8:0::1` →
 * `2001:db8::1`), an IPv4-mapped one as `::ffff:192.0.2.1` (or `192.0.2.1` with
 * `unpackIpv4`). Refused: "Enter a valid IPv4 address." (or IPv6, or "IPv4 or IPv6", after the
 * protocol).
 *
 * @example
 * ```ts
 * const lastLogin = new IPAddressField({ protocol: 'both', unpackIpv4: true });
 * ```
 */
export class IPAddressField<
  const O extends IPAddressFieldOptions = IPAddressFieldOptions,
> extends CharField<O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Enter a valid IPv4 or IPv6 address.',
    invalid_ipv4: 'Enter a valid IPv4 address.',
    invalid_ipv6: 'Enter a valid IPv6 address.',
  };

  /** The address families accepted, lower case. */
  readonly protocol: 'both' | 'ipv4' | 'ipv6';
  /** Whether an IPv4-mapped IPv6 address is given as IPv4. */
  readonly unpackIpv4: boolean;

  constructor(options: O & OnlyKnown<O, IPAddressFieldOptions> = {} as never) {
    super(options);
    if (new.target === IPAddressField)
      checkFieldOptions('IPAddressField', options, [
        'protocol',
        'unpackIpv4',
        'allowBlank',
        'trimWhitespace',
        'maxLength',
        'minLength',
      ]);
    const protocol = (options.protocol ?? 'both').toLowerCase();
    if (protocol !== 'both' && protocol !== 'ipv4' && protocol !== 'ipv6') {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `IPAddressField: the protocol '${String(options.protocol)}' is none of 'both', 'IPv4', 'IPv6'.`,
      );
    }
    this.protocol = protocol;
    this.unpackIpv4 = options.unpackIpv4 ?? false;
    if (this.unpackIpv4 && protocol !== 'both') {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        "IPAddressField: unpackIpv4 needs protocol 'both' (an unpacked address is IPv4).",
      );
    }
    const code =
      protocol === 'ipv4' ? 'invalid_ipv4' : protocol === 'ipv6' ? 'invalid_ipv6' : 'invalid';
    this.validators.push((value: string, _ctx, field) => {
      const ok =
        protocol === 'ipv4'
          ? isIPv4(value)
          : protocol === 'ipv6'
            ? isIPv6Text(value)
            : isIPv4(value) || isIPv6Text(value);
      if (!ok) field.fail(code);
    });
  }

  override toInternalValue(data: unknown, ctx?: RunContext): string {
    if (typeof data !== 'string') return this.fail('invalid');
    const value = data.includes(':') ? this.#cleanIpv6(data) : data;
    return super.toInternalValue(value, ctx);
  }

  /** Django's `clean_ipv6_address`: compressed, lower case, IPv4-mapped kept or unpacked. */
  #cleanIpv6(text: string): string {
    if (!isIPv6Text(text)) return this.fail('invalid');
    const address = ipaddr.IPv6.parse(text);
    if (address.isIPv4MappedAddress()) {
      const ipv4 = address.toIPv4Address().toString();
      return this.unpackIpv4 ? ipv4 : `::ffff:${ipv4}`;
    }
    const cleaned = address.toRFC5952String();
    if (cleaned.length > MAX_IPV6_LENGTH) return this.fail('invalid');
    return cleaned;
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const format =
      this.protocol === 'ipv4' ? 'ipv4' : this.protocol === 'ipv6' ? 'ipv6' : undefined;
    const schema = super.valueSchema(options);
    return format === undefined ? schema : { ...schema, format };
  }
}

/** A valid IPv6 address text (a zone `%eth0` allowed, as Python's `ipaddress`). */
function isIPv6Text(text: string): boolean {
  return ipaddr.IPv6.isValid(text);
}
