import { walkScreens, isTaskScreen } from './every-screen.ts';

/** The worker's wallet, KYC, profile, security and notifications screens (every-screen.ts). */
walkScreens([{ role: 'worker', screens: (screen) => !isTaskScreen(screen) }]);
