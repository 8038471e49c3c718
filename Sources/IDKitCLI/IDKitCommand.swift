import IDKitMRZ
