export * from './upload';
export * from './present';
export * from './number';
export * from './download';
export * from './clipboard';
export * from './query';
