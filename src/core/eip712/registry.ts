import type { TypeRegistry } from '../wire/eip712.ts';

/** The signing domain's version; its name is the service's own (the local service: EIP712_DOMAIN_NAME). */
export const SIGNING_DOMAIN_VERSION = '1';
/** Production's signing domain: chain-agnostic, no verifying contract. A local service never signs under it. */
export const PRODUCTION_SIGNING_DOMAIN = { name: 'Namefi', version: SIGNING_DOMAIN_VERSION } as const;

const f = (name: string, type: string) => ({ name, type });
const envelopeOf = (payloadStruct: string) => [
  f('payloadType', 'string'),
  f('payload', payloadStruct),
  f('timestamp', 'uint256'),
  f('nonce', 'string'),
];

const structs: TypeRegistry = {
  ZoneSelect: [f('zoneName', 'string')],
  CreateDnsRecord: [f('name', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), f('zoneName', 'string')],
  UpdateDnsRecord: [f('id', 'string'), f('zoneName', 'string'), f('name', 'string'), f('rdata', 'string'), f('ttl', 'uint256')],
  // Ours: the seed's two structs above leave the record's type unsigned, so a relay could change it.
  CreateTypedDnsRecord: [f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), f('zoneName', 'string')],
  UpdateTypedDnsRecord: [f('id', 'string'), f('zoneName', 'string'), f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256')],
  RecordSelect: [f('id', 'string'), f('zoneName', 'string')],
  CreateZoneRecord: [f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256')],
  CreateRecords: [f('zoneName', 'string'), f('records', 'CreateZoneRecord[]')],
  UpdateZoneRecord: [f('id', 'string'), f('name', 'string'), f('rdata', 'string'), f('ttl', 'uint256')],
  UpdateRecords: [f('records', 'UpdateZoneRecord[]'), f('zoneName', 'string')],
  DeleteRecords: [f('recordsIds', 'string[]'), f('zoneName', 'string')],
  ParkDomain: [f('normalizedDomainName', 'string'), f('overrideExistingRecords', 'bool')],
  ToggleDomainParking: [f('normalizedDomainName', 'string'), f('enableParking', 'bool'), f('overrideExistingRecords', 'bool')],
  ToggleDnssec: [f('normalizedDomainName', 'string'), f('enabled', 'bool')],
  NftReceivingWallet: [f('walletAddress', 'string'), f('chainId', 'uint256')],
  InstantRegisterDomain: [
    f('normalizedDomainName', 'string'),
    f('durationInYears', 'uint256'),
    f('nftReceivingWallet', 'NftReceivingWallet'),
  ],
  InstantRegisterDomainDefaultWallet: [f('normalizedDomainName', 'string'), f('durationInYears', 'uint256')],
  RegisterDomainWithRecords: [
    f('normalizedDomainName', 'string'),
    f('durationInYears', 'uint256'),
    f('records', 'CreateZoneRecord[]'),
  ],
  SetForwarding: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('targetUrl', 'string'), f('statusCode', 'uint256'), f('keepPath', 'bool')],
};

const ENVELOPED = [
  'ZoneSelect', 'CreateDnsRecord', 'UpdateDnsRecord', 'CreateTypedDnsRecord', 'UpdateTypedDnsRecord', 'RecordSelect', 'CreateRecords', 'UpdateRecords', 'DeleteRecords',
  'ParkDomain', 'ToggleDomainParking', 'ToggleDnssec', 'InstantRegisterDomain', 'InstantRegisterDomainDefaultWallet', 'RegisterDomainWithRecords',
  'SetForwarding',
];

/** The full registry the service publishes at /eip712/types and verifies with. */
export const TYPE_REGISTRY: TypeRegistry = {
  ...structs,
  ...Object.fromEntries(ENVELOPED.map((s) => [`${s}Envelope`, envelopeOf(s)])),
};

/**
 * Which envelope types each operation accepts, in the order a client should try them (it signs with the first
 * whose struct covers every field it sends); an operation absent here has no EIP-712 form.
 */
export const ACCEPTED_PRIMARY_TYPES: Record<string, string[]> = {
  createDnsRecord: ['CreateTypedDnsRecordEnvelope', 'CreateDnsRecordEnvelope'],
  updateDnsRecord: ['UpdateTypedDnsRecordEnvelope', 'UpdateDnsRecordEnvelope'],
  deleteDnsRecord: ['RecordSelectEnvelope'],
  batchCreateDnsRecords: ['CreateRecordsEnvelope'],
  batchUpdateDnsRecords: ['UpdateRecordsEnvelope'],
  batchDeleteDnsRecords: ['DeleteRecordsEnvelope'],
  parkDomain: ['ParkDomainEnvelope'],
  toggleDomainParking: ['ToggleDomainParkingEnvelope'],
  toggleDnssec: ['ToggleDnssecEnvelope'],
  // The default-wallet type first: a registration without a receiving wallet signs none, rather than an empty one.
  registerDomain: ['InstantRegisterDomainDefaultWalletEnvelope', 'InstantRegisterDomainEnvelope'],
  registerWithRecords: ['RegisterDomainWithRecordsEnvelope'],
  setForwarding: ['SetForwardingEnvelope'],
};

/**
 * Payload fields a primary type leaves unsigned but the service still takes: the seed's untyped record structs
 * do not sign `type`, and its clients send it (a known weakness the typed structs above close).
 */
export const UNSIGNED_BUT_ACCEPTED: Record<string, readonly string[]> = {
  CreateDnsRecordEnvelope: ['type'],
  UpdateDnsRecordEnvelope: ['type'],
};

/** The `unsignedAccepted` a types-for-method answer carries for these accepted primary types. */
export function unsignedAcceptedFor(primaryTypes: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(primaryTypes.filter((t) => Object.hasOwn(UNSIGNED_BUT_ACCEPTED, t)).map((t) => [t, [...UNSIGNED_BUT_ACCEPTED[t]]]));
}

/** The struct name and every struct it references, in first-use order. */
export function typesReachableFrom(registry: TypeRegistry, root: string): TypeRegistry {
  const out: TypeRegistry = {};
  const visit = (name: string) => {
    if (out[name] || !registry[name]) return;
    out[name] = registry[name];
    for (const field of registry[name]) visit(field.type.replace(/\[\]$/, ''));
  };
  visit(root);
  return out;
}

/** What `/eip712/types-for-method` answers for an operation. */
export function typesForMethod(registry: TypeRegistry, accepted: Record<string, string[]>, method: string) {
  const primaryTypes = Object.hasOwn(accepted, method) ? accepted[method] : undefined;
  if (!primaryTypes) {
    return { found: false, acceptedPrimaryTypes: [], types: {}, availableMethods: Object.keys(accepted) };
  }
  const types: TypeRegistry = {};
  for (const t of primaryTypes) Object.assign(types, typesReachableFrom(registry, t));
  const unsignedAccepted = unsignedAcceptedFor(primaryTypes);
  return { found: true, acceptedPrimaryTypes: primaryTypes, types, unsignedAccepted };
}
