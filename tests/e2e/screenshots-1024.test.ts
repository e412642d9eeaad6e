import { screenshotTour } from './screenshots';

// The screenshot tour at 1024×768 (the 1440×900 screenshots are taken on the accessibility tour).
screenshotTour({ width: 1024, height: 768 });
