import { walkScreens } from './every-screen.ts';

/** The finance's screens (every-screen.ts). */
walkScreens([{ role: 'finance' }]);
