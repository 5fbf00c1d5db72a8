// A scan worker whose module throws while loading.
throw new Error('scan worker failed to load');
