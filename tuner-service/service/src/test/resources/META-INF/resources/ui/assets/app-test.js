console.log("sluice test asset");
