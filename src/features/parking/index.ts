// The parking feature's public face: the records page parks and unparks through the same signed call as the panel.
export { useToggleParking } from './api/toggle-parking.ts';
