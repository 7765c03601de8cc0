import { walkScreens } from './every-screen.ts';

/** The admin's screens (every-screen.ts). */
walkScreens([{ role: 'admin' }]);
