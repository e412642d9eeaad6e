import { screenshotTour } from './screenshots';

// The screenshot tour at 1440×900 (the other viewport has a file of its own, so both run side by side).
screenshotTour({ width: 1440, height: 900 });
