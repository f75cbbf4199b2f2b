// The parking feature's public face: the records page parks and unparks through the same signed call as the panel.
export { useToggleParking } from './api/toggle-parking.ts';
// The zone's records and whether they are parked: forwarding and the domains workbench read the same answer.
export { zoneRecordsQuery } from './api/zone-records.ts';
export { isParkedZone } from './parking-state.ts';
